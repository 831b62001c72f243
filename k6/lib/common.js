// Shared by every perflab k6 script: base URL, the variant tag, open-model scenarios and JSON checks.
import { check } from 'k6';
import exec from 'k6/execution';

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

// The runner's interleaved mode (ARMS=a,b; docs/experiments.md): each request names an arm in X-Perflab-Arm (the app
// honours it only when started for an interleaved run) and carries it as the `arm` tag, which the runner splits the
// run's requests by. The arms are dealt in blocks: every run of len(ARMS) consecutive iterations of a scenario (k6
// numbers them in arrival order) holds each arm once, in a shuffled order that every VU derives alike from the block's
// number, so that a stall hitting a few requests in a row hits every arm alike; a batch's requests take the next arms
// of the block. Without ARMS the request is unchanged.
const ARMS = (__ENV.ARMS || '').split(',').filter(Boolean);
let lastIteration = -1;
let callInIteration = 0;

// mulberry32: a small seeded generator, the same numbers in every VU for the same block
function shuffled(block) {
  let t = (block + 0x6d2b79f5 * (1 + ARMS.length)) >>> 0;
  const next = () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  const order = ARMS.slice();
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

export function armOf(iteration, call) {
  const slot = iteration + call;
  return shuffled(Math.floor(slot / ARMS.length))[slot % ARMS.length];
}

export function withArm(params) {
  if (!ARMS.length) return params;
  const iteration = exec.scenario.iterationInTest;
  callInIteration = iteration === lastIteration ? callInIteration + 1 : 0;
  lastIteration = iteration;
  const arm = armOf(iteration, callInIteration);
  return { ...params, headers: { ...(params.headers || {}), 'X-Perflab-Arm': arm }, tags: { ...(params.tags || {}), arm } };
}
