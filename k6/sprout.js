// Seed 000's own measurement on its own server: the sprout server (perflab.sprout.enabled=true, src/main/java/
// dev/perflab/sprout) started cold, HelloWorld requests at a fixed arrival rate from the first moment, the first
// 8,000 counted. Run by `./perflab ab cold-start-server`, which starts this script first and the app right after:
// setup() polls the app's readiness every 10 ms (the sprout server listens before readiness says so) and the load
// begins the moment it says ACCEPTING_TRAFFIC.
//
//   REQUESTS (8000) RATE (89/s)  the write-up's short run: "약 8000개 정도의 요청" in "약 1분 30초" (8,000 / 90 s)
//   TIMEOUT (60s)  a slower answer is a failure. The write-up counts Gatling's KOs and sets no timeout of its own, so
//                  this is Gatling's default request timeout (gatling.http.requestTimeout, 60,000 ms); a KO is also
//                  any status but 200 and any connection error
//   NEW_CONNECTIONS (true)  a connection per request, as Gatling's virtual users each open their own (no pooling
//                  across users: its default); false reuses each VU's connection (keep-alive)
//   SPROUT_URL     the sprout server; default BASE_URL with its port + 1000 (the app's default for perflab.sprout.port)
//   SUMMARY        the full summary as JSON, with readyEpochMs, recordEndEpochMs, dropped and the windows on top
//                  (the same fields as k6/cold-start.js: the runner's cold-start shape reads them)
// When the app is already up as setup() starts (a run by hand), setup() checks that the sprout server answers, and
// stops at once when it does not; when it is not up (the experiment starts it after k6), it checks nothing, so that
// the first requests stay cold.
import http from 'k6/http';
import exec from 'k6/execution';
import { BASE_URL, tags } from './lib/common.js';
import { fail } from './lib/preconditions.js';
import { coldStart } from './lib/cold-start.js';

export { handleSummary } from './lib/summary.js';

const RATE = Number(__ENV.RATE || 89);
const REQUESTS = Number(__ENV.REQUESTS || 8000);
const TIMEOUT = __ENV.TIMEOUT || '60s';
const NEW_CONNECTIONS = (__ENV.NEW_CONNECTIONS || 'true') !== 'false';
const SPROUT_URL = __ENV.SPROUT_URL || plus1000(BASE_URL);
const cold = coldStart(REQUESTS);

/** http://host:8091 -> http://host:9091: the sprout server's default port beside the app's. */
function plus1000(url) {
  const m = /^(https?:\/\/[^/:]+):(\d+)/.exec(url);
  return m ? `${m[1]}:${Number(m[2]) + 1000}` : null;
}

/** '60s', '500ms', '1m' in seconds. */
function seconds(duration) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(duration);
  if (!m) throw new Error(`TIMEOUT=${duration}: give it as 500ms, 60s or 1m`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60 }[m[2]];
}

export const options = {
  tags,
  setupTimeout: '180s',
  noConnectionReuse: NEW_CONNECTIONS,
  scenarios: {
    cold: {
      executor: 'constant-arrival-rate', rate: RATE, timeUnit: '1s', duration: `${Math.ceil(REQUESTS / RATE)}s`,
      preAllocatedVUs: Math.min(400, RATE), maxVUs: 1000, exec: 'hello',
      // an answer may take up to TIMEOUT: let the last ones finish, so that each is counted
      gracefulStop: `${Math.ceil(seconds(TIMEOUT)) + 5}s`,
    },
  },
  summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
};

const START = './perflab up -- --perflab.sprout.enabled=true';

export function setup() {
  if (!SPROUT_URL) fail(`cannot derive the sprout server's address from BASE_URL=${BASE_URL} (no port): give SPROUT_URL`);
  cold.awaitReadiness(requireSprout);
  return {};
}

// the app was up before k6: a run by hand, so the sprout server must be there
function requireSprout() {
  const res = http.get(`${SPROUT_URL}/`, { timeout: '5s', tags: { name: 'precondition' } });
  if (res.status !== 200) {
    fail(`the sprout server does not answer at ${SPROUT_URL} (${res.status === 0 ? res.error : res.status}): start the app with it, ${START}`);
  }
}

export function hello() {
  const n = exec.scenario.iterationInTest;
  if (n >= REQUESTS) return;
  const res = http.get(`${SPROUT_URL}/`, { timeout: TIMEOUT, tags: { name: 'sprout' } });
  cold.record(n, res, res.status === 200);
}
