// Seed 000's cold-start measurement: the first requests after a start, under a fixed arrival rate, with a short
// client timeout, as Gatling's KO counted them. Run by `./perflab ab cold-start`, which starts this script first
// and the app right after: setup() polls readiness every 10 ms and the load begins the moment it says
// ACCEPTING_TRAFFIC.
//
//   RATE (200/s)  REQUESTS (10000: the first 8000 are the record, the last 2000 the steady state)
//   TIMEOUT (1s)  a slower answer is a failure
//   SUMMARY       where the full summary goes as JSON, with readyEpochMs, recordEndEpochMs (the last answer of
//                 the first 8000), dropped and the windows on top
//   UNIVS (11,12) small universities   MEMBERS (100000) the wallet data set
// Data: ./perflab seed coldstart (the experiment's database); ./perflab up loads the same into the app's.
// When the app is already up as setup() starts (a run by hand), setup() checks the data and a login first; when
// it is not (the experiment starts the app after k6), it checks nothing, so that the first requests stay cold.
// The mix, by request number: 2 in 10 log in (the external API), 4 transfer (MariaDB + Redis), 4 read routes.
import http from 'k6/http';
import exec from 'k6/execution';
import { BASE_URL, tags } from './lib/common.js';
import { bearer } from './lib/route-auth.js';
import { requireKnobs, requireLogin, requireRoutes, requireWalletData, seedCommand } from './lib/preconditions.js';
import { coldStart } from './lib/cold-start.js';
import { MEMBER_PASSWORD, MEMBER_PIN, required } from './lib/credentials.js';

// this install's credentials (lib/credentials.js): the stub's member password and the seeded PIN
const PASSWORD = required(MEMBER_PASSWORD, 'MEMBER_PASSWORD');
const PIN = required(MEMBER_PIN, 'MEMBER_PIN');

export { handleSummary } from './lib/summary.js';

const RATE = Number(__ENV.RATE || 200);
const REQUESTS = Number(__ENV.REQUESTS || 10000);
const TIMEOUT = __ENV.TIMEOUT || '1s';
const UNIVS = (__ENV.UNIVS || '11,12').split(',').map(Number);
const MEMBERS = Number(__ENV.MEMBERS || 100000);
const cold = coldStart(REQUESTS);

export const options = {
  tags,
  setupTimeout: '180s',
  scenarios: {
    cold: {
      executor: 'constant-arrival-rate', rate: RATE, timeUnit: '1s', duration: `${Math.ceil(REQUESTS / RATE)}s`,
      preAllocatedVUs: Math.min(400, RATE), maxVUs: 1000, exec: 'mixed', gracefulStop: '5s',
    },
  },
  summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  cold.awaitReadiness(checkData);
  return {};
}

// the app was up before k6: a run by hand, so make sure the mix can succeed. 200 requests/s within 1 s each need
// the preset the experiment starts (after): on the default one (a TLS handshake per login, routes built on every
// read, the 12-statement transfer) 99.8 % of them timed out
const NEEDS = { 'login.client': 'pooled', 'route.cache': 'redis', 'wallet.transfer': 'optimized' };

function checkData() {
  requireKnobs(NEEDS, './perflab up --profile after');
  const token = requireLogin(`user${MEMBERS}`);
  requireWalletData(token);
  requireRoutes(UNIVS, bearer(), seedCommand('route', ` --univs ${UNIVS.join(',')} --routes 500`));
}

const pick = (n) => 1 + Math.floor(Math.random() * n);
const uuid = () => crypto.randomUUID();

function login() {
  return http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ loginId: `user${pick(MEMBERS)}`, password: PASSWORD }),
    { headers: { 'Content-Type': 'application/json' }, timeout: TIMEOUT, tags: { name: 'login' } });
}

function transfer() {
  const sender = pick(MEMBERS);
  const receiver = sender % MEMBERS + 1;
  return http.post(`${BASE_URL}/api/transfers`,
    JSON.stringify({ receiverPhone: `010${String(receiver).padStart(8, '0')}`, amount: 1.25, pin: PIN }),
    { headers: { Authorization: bearer(sender, `user${sender}`), 'Content-Type': 'application/json', 'Idempotency-Key': uuid() },
      timeout: TIMEOUT, tags: { name: 'transfer' } });
}

function routes() {
  return http.get(`${BASE_URL}/api/universities/${UNIVS[pick(UNIVS.length) - 1]}/routes`,
    // a member per VU: the app refuses a member's third route read in flight (perflab.route.member-concurrency)
    { headers: { Authorization: bearer(__VU, `k6-${__VU}`) }, responseType: 'none', timeout: TIMEOUT, tags: { name: 'routes' } });
}

const EXPECTED = { login: 200, transfer: 201, routes: 200 };

export function mixed() {
  const n = exec.scenario.iterationInTest;
  if (n >= REQUESTS) return;
  const kind = n % 10 < 2 ? 'login' : n % 10 < 6 ? 'transfer' : 'routes';
  const res = kind === 'login' ? login() : kind === 'transfer' ? transfer() : routes();
  cold.record(n, res, res.status === EXPECTED[kind], { kind });
}
