// Shared by every perflab k6 script: base URL, the variant tag, open-model scenarios and JSON checks.
import { check } from 'k6';

export const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
export const VARIANT = __ENV.VARIANT || 'unknown';

// Every metric k6 emits carries the variant, so Prometheus and the A/B runner can split by it.
export const tags = { variant: VARIANT, testid: __ENV.TESTID || `${VARIANT}-${Date.now()}` };

/** An open model: requests arrive at `rate` per second whatever the server does (no coordinated omission). */
export function arrivalRate(rate, duration, exec, maxVUs = 200) {
  return {
    executor: 'constant-arrival-rate',
    rate: Number(rate),
    timeUnit: '1s',
    duration,
    preAllocatedVUs: Math.min(Number(maxVUs), Math.max(10, Number(rate))),
    maxVUs: Number(maxVUs),
    exec,
  };
}

export function json(res) {
  try {
    return res.json();
  } catch (e) {
    return null;
  }
}

export function checkProblem(res, status, code) {
  const body = json(res);
  return check(res, {
    [`${status} ${code}`]: (r) => r.status === status,
    [`${code} is problem+json`]: (r) => (r.headers['Content-Type'] || '').startsWith('application/problem+json'),
    [`${code} has its code`]: () => body !== null && body.code === code,
  });
}

// The runner's interleaved mode (ARMS=a,b; docs/experiments.md): each request picks one arm at random, names it in
// X-Perflab-Arm (the app honours it only when started for an interleaved run) and carries it as the `arm` tag, which
// the runner splits the run's requests by. Without ARMS the request is unchanged.
const ARMS = (__ENV.ARMS || '').split(',').filter(Boolean);

export function withArm(params) {
  if (!ARMS.length) return params;
  const arm = ARMS[Math.floor(Math.random() * ARMS.length)];
  return { ...params, headers: { ...(params.headers || {}), 'X-Perflab-Arm': arm }, tags: { ...(params.tags || {}), arm } };
}
