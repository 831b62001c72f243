// Shared by the cold-start scripts (k6/cold-start.js, k6/sprout.js): the windows by request number (the order
// requests were sent), their latency and success metrics, the ready and record-end times, and the summary fields
// the runner's cold-start shape reads (readyEpochMs, recordEndEpochMs, dropped, windows). Call coldStart() in the
// init context (top level): k6 creates metrics only there.
import http from 'k6/http';
import { sleep } from 'k6';
import { Trend, Rate, Gauge } from 'k6/metrics';
import { BASE_URL } from './common.js';
import { summaryFields, summaryLine } from './summary.js';

export const RECORD = 8000; // the first 8,000 requests are the record; the rest up to REQUESTS, the steady state

export function coldStart(requests) {
  // [name, first, last exclusive]
  const windows = [['first100', 0, 100], ['first1000', 0, 1000], ['first8000', 0, RECORD], ['steady', RECORD, requests]];
  const latency = Object.fromEntries(windows.map(([w]) => [w, new Trend(`cold_${w}_ms`, true)]));
  const success = Object.fromEntries(windows.map(([w]) => [w, new Rate(`cold_${w}_ok`)]));
  const readyAt = new Gauge('cold_ready_epoch_ms'); // the runner subtracts the app's launch time
  const recordEnd = new Gauge('cold_record_end_epoch_ms'); // its max: when the record window's last answer came

  const window = (data, w) => {
    const t = data.metrics[`cold_${w}_ms`];
    const r = data.metrics[`cold_${w}_ok`];
    if (!t || !r) return null;
    return { count: r.values.passes + r.values.fails, success: r.values.rate, failures: r.values.fails,
      p50: t.values.med, p95: t.values['p(95)'], p99: t.values['p(99)'], max: t.values.max };
  };
  const fields = (data) => {
    const ready = data.metrics.cold_ready_epoch_ms;
    const dropped = data.metrics.dropped_iterations;
    const end = data.metrics.cold_record_end_epoch_ms;
    return {
      readyEpochMs: ready ? ready.values.value : null,
      recordEndEpochMs: end ? end.values.max : null,
      dropped: dropped ? dropped.values.count : 0,
      windows: Object.fromEntries(windows.map(([w]) => [w, window(data, w)])),
    };
  };
  summaryFields(fields);
  summaryLine((data) => `${JSON.stringify(fields(data))}\n`);

  return {
    /**
     * setup(): polls the app's readiness every 10 ms (for up to 170 s) and notes when it answered. onFirstPoll runs
     * when it answered the first poll: the app was up before k6 (a run by hand), so the script may check what it
     * needs; otherwise (the runner started the app after k6) nothing is sent, so that the first requests stay cold.
     */
    awaitReadiness(onFirstPoll) {
      const deadline = Date.now() + 170000;
      for (let polls = 1; Date.now() < deadline; polls++) {
        const res = http.get(`${BASE_URL}/actuator/health/readiness`, { timeout: '1s', tags: { name: 'readiness' } });
        if (res.status === 200) {
          readyAt.add(Date.now());
          if (polls === 1) onFirstPoll();
          return;
        }
        sleep(0.01);
      }
      throw new Error(`${BASE_URL} did not report readiness within 170 s`);
    },
    /** Request number n answered with res; ok: whether it counts as a success. */
    record(n, res, ok, metricTags = {}) {
      if (n < RECORD) recordEnd.add(Date.now());
      for (const [w, first, last] of windows) {
        if (n >= first && n < last) {
          latency[w].add(res.timings.duration, metricTags);
          success[w].add(ok, metricTags);
        }
      }
    },
  };
}
