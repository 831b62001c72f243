// Wallet transfer under an open model (seed 004): POST /api/transfers from many logged-in senders to random
// receivers, each request with its own Idempotency-Key, plus a second scenario of reverse pairs (A→B and B→A
// at the same moment) to bait deadlocks.
//
//   ./perflab k6 transfer.js -e BASE_URL=http://127.0.0.1:8083 [-e MODE=ramp|fixed] [-e RATE=300] ...
//
//   MODE=ramp (default): ramping-arrival-rate through RAMP (comma-separated targets, default 100,200,300,400,500),
//                        each reached in RISE seconds (default 5) and held for STEP seconds (default 15); PRE_VUS
//                        virtual users ready at the start (default 200). The A/B runner's `[load] ramp` runs this
//                        mode and reads each plateau's requests from the CSV by time (tooling/perflab/analyse/ramp.py)
//   RAMP_KIND=linear     (with MODE=ramp) case study 004's ramp: from 0, a linear climb to each RAMP target in turn
//                        over its SEGMENTS (seconds, one per target, e.g. 60,60,60,60,120), no plateaus, then down
//                        to 0 over FALL seconds (default 30); RAMP_KIND=plateaus (default) is the ramp above.
//                        `[load] ramp_kind = "linear"` with `segments` and `fall` runs it; tooling/perflab/analyse/ramp.py reads each
//                        climb's requests as its stage's
//   MODE=fixed:          constant-arrival-rate at RATE per second for DURATION (default 60s)
//   REVERSE_RATE         reverse pairs per second (each is two requests; default RATE/20, 0 turns it off)
//   SENDERS              how many members log in and send (default 200; user1..userN)
//   RECEIVERS            receivers are random among user(SENDERS+1)..user(SENDERS+RECEIVERS) (default 2000: people
//                        send to people they know, and the phone cache warms); RECEIVERS=100000 for all members
//   PICK                 random (default): each transfer picks its receiver at random; cycle: the transfers go to the
//                        receivers in turn, so RECEIVERS transfers reach every one of them (a warm-up that fills the
//                        phone cache, as it is in service)
//   MAX_VUS              cap on k6's virtual users (default 1000)
//   SUMMARY              where to write the full summary as JSON (k6/lib/summary.js)
// Needs the wallet data set (./perflab up loads it; ./perflab seed wallet); any wallet variant.
// In ramp mode each request is tagged step=<target> on a plateau and step=ramp while the rate climbs, and every
// plateau gets its own thresholds, so the summary says which rates held p95 < 300 ms and < 1% errors. In a linear
// ramp each request is tagged step=<target> of the climb it is sent in (step=fall in the fall), with the same
// thresholds per target.
import http from 'k6/http';
import exec from 'k6/execution';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { BASE_URL, tags, json, withArm } from './lib/common.js';
import { requireApp, requireLogin, requireWalletData } from './lib/preconditions.js';
import { MEMBER_PASSWORD, MEMBER_PIN, required } from './lib/credentials.js';

// this install's credentials (lib/credentials.js): the stub's member password and the seeded PIN
const PASSWORD = required(MEMBER_PASSWORD, 'MEMBER_PASSWORD');
const PIN = required(MEMBER_PIN, 'MEMBER_PIN');

export { handleSummary } from './lib/summary.js';

const MODE = __ENV.MODE || 'ramp';
const RATE = Number(__ENV.RATE || 300);
const SENDERS = Number(__ENV.SENDERS || 200);
const RECEIVERS = Number(__ENV.RECEIVERS || 2000);
const PICK = __ENV.PICK || 'random';
if (PICK !== 'random' && PICK !== 'cycle') {
  throw new Error(`PICK=${PICK}: use random or cycle`);
}
const MAX_VUS = Number(__ENV.MAX_VUS || 1000);
const REVERSE_RATE = Number(__ENV.REVERSE_RATE !== undefined ? __ENV.REVERSE_RATE : Math.max(1, Math.round(RATE / 20)));
const RAMP = (__ENV.RAMP || '100,200,300,400,500').split(',').map(Number);
const STEP = `${Number(__ENV.STEP || 15)}s`;
const RISE_S = Number(__ENV.RISE || 5);
const PRE_VUS = Number(__ENV.PRE_VUS || 200);
const LINEAR = MODE !== 'fixed' && __ENV.RAMP_KIND === 'linear';
if (__ENV.RAMP_KIND && __ENV.RAMP_KIND !== 'linear' && __ENV.RAMP_KIND !== 'plateaus') {
  throw new Error(`RAMP_KIND=${__ENV.RAMP_KIND}: use plateaus or linear`);
}
const SEGMENTS = LINEAR ? (__ENV.SEGMENTS || '').split(',').map(Number) : [];
if (LINEAR && (SEGMENTS.length !== RAMP.length || !SEGMENTS.every((s) => s > 0))) {
  throw new Error(`SEGMENTS=${__ENV.SEGMENTS}: one climb in seconds per RAMP target (${RAMP.length})`);
}
const FALL_S = Number(__ENV.FALL || 30);
// a linear ramp's length: its climbs and its fall (seconds)
const LINEAR_S = SEGMENTS.reduce((a, b) => a + b, 0) + FALL_S;

const replayed = new Counter('transfer_replayed');
const status4xx = new Counter('transfer_4xx');
const status5xx = new Counter('transfer_5xx');

function mainScenario() {
  if (MODE === 'fixed') {
    return {
      executor: 'constant-arrival-rate', rate: RATE, timeUnit: '1s', duration: __ENV.DURATION || '60s',
      preAllocatedVUs: Math.min(MAX_VUS, Math.max(50, RATE)), maxVUs: MAX_VUS, exec: 'transfer',
    };
  }
  if (LINEAR) {
    return {
      executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s',
      stages: [...RAMP.map((target, i) => ({ target, duration: `${SEGMENTS[i]}s` })), { target: 0, duration: `${FALL_S}s` }],
      preAllocatedVUs: Math.min(MAX_VUS, PRE_VUS), maxVUs: MAX_VUS, exec: 'transfer', gracefulStop: '10s',
    };
  }
  return {
    executor: 'ramping-arrival-rate', startRate: Math.min(RAMP[0], 50), timeUnit: '1s',
    stages: RAMP.flatMap((target) => [{ target, duration: `${RISE_S}s` }, { target, duration: STEP }]),
    preAllocatedVUs: Math.min(MAX_VUS, PRE_VUS), maxVUs: MAX_VUS, exec: 'transfer', gracefulStop: '10s',
  };
}

const scenarios = { transfer: mainScenario() };
if (REVERSE_RATE > 0) {
  scenarios.reverse_pairs = {
    executor: 'constant-arrival-rate', rate: REVERSE_RATE, timeUnit: '1s',
    duration: MODE === 'fixed' ? (__ENV.DURATION || '60s')
      : LINEAR ? `${LINEAR_S}s` : `${RAMP.length * (Number(__ENV.STEP || 15) + RISE_S)}s`,
    preAllocatedVUs: 20, maxVUs: 200, exec: 'reversePair',
  };
}

const thresholds = {
  http_req_failed: ['rate<0.01'],
  http_req_duration: ['p(95)<300'],
  'http_req_duration{scenario:transfer}': ['p(95)<300'],
};
if (MODE !== 'fixed') {
  for (const target of RAMP) {
    thresholds[`http_req_duration{step:${target}}`] = ['p(95)<300'];
    thresholds[`http_req_failed{step:${target}}`] = ['rate<0.01'];
  }
}

export const options = {
  tags,
  scenarios,
  setupTimeout: '120s',
  thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

// preconditions (the app, a login, the wallet data set), then log in user1..userSENDERS, 25 at a time; the
// token's subject is the member id
export function setup() {
  requireApp();
  requireWalletData(requireLogin('user1'));
  const tokens = [];
  for (let first = 1; first <= SENDERS; first += 25) {
    const batch = [];
    for (let n = first; n < first + 25 && n <= SENDERS; n++) {
      batch.push(['POST', `${BASE_URL}/api/auth/login`, JSON.stringify({ loginId: `user${n}`, password: PASSWORD }),
        { headers: { 'Content-Type': 'application/json' }, tags: { name: 'login' } }]);
    }
    for (const res of http.batch(batch)) {
      const body = json(res);
      check(res, { 'login 200': (r) => r.status === 200 && body !== null && !!body.accessToken });
      if (res.status === 200 && body) {
        tokens.push({ token: body.accessToken, id: memberIdOf(body.accessToken) });
      }
    }
  }
  if (tokens.length === 0) {
    throw new Error(`no sender could log in at ${BASE_URL}/api/auth/login`);
  }
  return { tokens };
}

function memberIdOf(token) {
  const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
  return Number(JSON.parse(String.fromCharCode(...decodeBase64(payload))).sub);
}

function decodeBase64(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const bytes = [];
  let buffer = 0;
  let bits = 0;
  for (const c of text.replace(/=+$/, '')) {
    buffer = (buffer << 6) | alphabet.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return bytes;
}

function uuid() {
  const hex = '0123456789abcdef';
  let out = '';
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) out += '-';
    else if (i === 14) out += '4';
    else if (i === 19) out += hex[8 + Math.floor(Math.random() * 4)];
    else out += hex[Math.floor(Math.random() * 16)];
  }
  return out;
}

const phoneOf = (memberId) => `010${String(memberId).padStart(8, '0')}`;
const amount = () => `${1 + Math.floor(Math.random() * 9)}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;

const STEP_MS = Number(__ENV.STEP || 15) * 1000;

// which plateau of the ramp this moment belongs to ('ramp' while the rate climbs to the next one)
function step() {
  if (MODE === 'fixed') return `${RATE}`;
  const elapsed = Date.now() - exec.scenario.startTime;
  if (LINEAR) return linearStep(elapsed);
  const index = Math.floor(elapsed / (RISE_S * 1000 + STEP_MS));
  if (index >= RAMP.length) return 'end';
  return elapsed - index * (RISE_S * 1000 + STEP_MS) < RISE_S * 1000 ? 'ramp' : `${RAMP[index]}`;
}

// which climb of a linear ramp this moment belongs to: its target ('fall' after the last one)
function linearStep(elapsed) {
  let end = 0;
  for (let i = 0; i < RAMP.length; i++) {
    end += SEGMENTS[i] * 1000;
    if (elapsed < end) return `${RAMP[i]}`;
  }
  return elapsed < end + FALL_S * 1000 ? 'fall' : 'end';
}

function request(sender, receiverId) {
  return ['POST', `${BASE_URL}/api/transfers`,
    JSON.stringify({ receiverPhone: phoneOf(receiverId), amount: Number(amount()), pin: PIN }),
    withArm({ headers: { Authorization: `Bearer ${sender.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': uuid() },
      tags: { name: 'transfer', step: step() } })];
}

function record(res) {
  check(res, { 'transfer 201': (r) => r.status === 201 });
  if (res.status >= 500 || res.status === 0) status5xx.add(1);
  else if (res.status >= 400) status4xx.add(1);
  if (res.headers['Idempotent-Replayed'] === 'true') replayed.add(1);
}

export function transfer(data) {
  const sender = data.tokens[Math.floor(Math.random() * data.tokens.length)];
  const index = PICK === 'cycle' ? exec.scenario.iterationInTest % RECEIVERS : Math.floor(Math.random() * RECEIVERS);
  let receiver = SENDERS + 1 + index;
  if (receiver === sender.id) receiver += 1;
  const [method, url, body, params] = request(sender, receiver);
  record(http.request(method, url, body, params));
}

// A→B and B→A in flight together: without ordered locks this is the textbook deadlock
export function reversePair(data) {
  const a = data.tokens[Math.floor(Math.random() * data.tokens.length)];
  let b = data.tokens[Math.floor(Math.random() * data.tokens.length)];
  if (b.id === a.id) b = data.tokens[(data.tokens.indexOf(a) + 1) % data.tokens.length];
  http.batch([request(a, b.id), request(b, a.id)]).forEach(record);
}
