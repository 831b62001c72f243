// Seed 002's `ab -n 100 -c 20` against a 1 s dependency: 100 requests from 20 concurrent clients
// (a closed model on purpose: it is the seed's own). ./perflab ab slow-dependency runs it per thread model,
// ./perflab ab slow-dependency-async also against the queued @Async endpoint.
// DELAY_MS (1000: 100, 500, 1000 or 2000, the stub's /slow delays)  CONCURRENCY (20)  REQUESTS (100)  SUMMARY
// ENDPOINT (direct: /api/lab/dependency?delayMs=; queued: /api/lab/dependency/queued, its task time set in the app)
// /api/lab/** needs the admin role: the script logs in as the stub's admin (ADMIN_LOGIN, ADMIN_PASSWORD).
import http from 'k6/http';
import { Trend, Counter } from 'k6/metrics';
import { BASE_URL, tags } from './lib/common.js';
import { requireAdminLogin, requireApp } from './lib/preconditions.js';
import { summaryLine } from './lib/summary.js';

export { handleSummary } from './lib/summary.js';

const DELAY = Number(__ENV.DELAY_MS || 1000);
const ENDPOINT = __ENV.ENDPOINT || 'direct';
if (!['direct', 'queued'].includes(ENDPOINT)) throw new Error(`ENDPOINT must be direct or queued, not ${ENDPOINT}`);
const PATH = ENDPOINT === 'queued' ? '/api/lab/dependency/queued' : `/api/lab/dependency?delayMs=${DELAY}`;
const accepted = new Trend('lab_accepted_ms', true);
const rejected = new Trend('lab_rejected_ms', true);
const failures = new Counter('lab_failures');

export const options = {
  tags,
  scenarios: {
    ab: { executor: 'shared-iterations', vus: Number(__ENV.CONCURRENCY || 20), iterations: Number(__ENV.REQUESTS || 100), maxDuration: '5m' },
  },
  summaryTrendStats: ['count', 'avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  // declared so that k6 keeps these sub-metrics apart from setup()'s login
  thresholds: { 'http_req_duration{scenario:ab}': ['max>=0'], 'http_reqs{scenario:ab}': ['count>=0'] },
};

export function setup() {
  requireApp();
  return { token: requireAdminLogin() };
}

export default function (data) {
  const res = http.get(`${BASE_URL}${PATH}`, {
    headers: { Authorization: `Bearer ${data.token}` },
    responseCallback: http.expectedStatuses(200),
    timeout: '60s',
  });
  if (res.status === 200) accepted.add(res.timings.duration);
  else if (res.status === 503) rejected.add(res.timings.duration);
  if (res.status !== 200) failures.add(1);
}

summaryLine((data) => {
  const m = data.metrics;
  const d = m['http_req_duration{scenario:ab}'].values;
  const count = m['http_reqs{scenario:ab}'].values.count;
  const line = (t) => (t ? `p50 ${t.values.med.toFixed(0)} p99 ${t.values['p(99)'].toFixed(0)} max ${t.values.max.toFixed(0)} ms` : '-');
  const text = `${tags.variant}: ${(count / (data.state.testRunDurationMs / 1000)).toFixed(2)} req/s, ` +
    `p50 ${d.med.toFixed(0)} ms, p90 ${d['p(90)'].toFixed(0)} ms, max ${d.max.toFixed(0)} ms, ` +
    `failures ${m.lab_failures ? m.lab_failures.values.count : 0}/${count}; ` +
    `accepted ${line(m.lab_accepted_ms)}; rejected ${line(m.lab_rejected_ms)}\n`;
  return text;
});
