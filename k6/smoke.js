// Smoke: the app answers health, metrics, login and its auth guard under a small open-model load.
// Thresholds check that it answers correctly and in time on a busy 2-core CI box; they are no benchmark.
// ./perflab k6 smoke.js   (CI runs it against the packaged jar; a failed threshold fails CI)
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, tags, arrivalRate, json, checkProblem } from './lib/common.js';
import { requireApp, requireLogin } from './lib/preconditions.js';
import { MEMBER_PASSWORD, required } from './lib/credentials.js';

// this install's credentials (lib/credentials.js): the stub's member password
const PASSWORD = required(MEMBER_PASSWORD, 'MEMBER_PASSWORD');

export { handleSummary } from './lib/summary.js';

export const options = {
  tags,
  scenarios: {
    health: arrivalRate(__ENV.RATE || 10, __ENV.DURATION || '10s', 'health', 20),
    guard: arrivalRate(__ENV.RATE || 10, __ENV.DURATION || '10s', 'guard', 20),
    login: arrivalRate(__ENV.LOGIN_RATE || 5, __ENV.DURATION || '10s', 'login', 20),
  },
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate<0.01'],
    'http_req_duration{scenario:health}': ['p(95)<2000'],
    'http_req_duration{scenario:guard}': ['p(95)<2000'],
    'http_req_duration{scenario:login}': ['p(95)<2000'],
  },
};

export function health() {
  const res = http.get(`${BASE_URL}/actuator/health`);
  const body = json(res);
  check(res, {
    'health 200': (r) => r.status === 200,
    // UP only when the database and Redis are (both are in the health group); their details are for the admin
    'health UP': () => body !== null && body.status === 'UP',
    'no details for anonymous': () => body !== null && body.components === undefined,
  });
}

export function guard() {
  // 401 is the expected answer here, not a failure
  const res = http.get(`${BASE_URL}/api/auth/me`, { responseCallback: http.expectedStatuses(401) });
  checkProblem(res, 401, 'unauthorized');
}

export function login() {
  const loginId = `user${1 + Math.floor(Math.random() * 100000)}`;
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ loginId, password: PASSWORD }),
    { headers: { 'Content-Type': 'application/json' } });
  const body = json(res);
  check(res, { 'login 200': (r) => r.status === 200, 'login token': () => body !== null && body.tokenType === 'Bearer' });
  const me = http.get(`${BASE_URL}/api/auth/me`, { headers: { Authorization: `Bearer ${body ? body.accessToken : ''}` } });
  check(me, { 'token accepted': (r) => r.status === 200 });
}

export function setup() {
  requireApp();
  requireLogin('user1');
  const metrics = http.get(`${BASE_URL}/actuator/prometheus`);
  check(metrics, { 'variant gauge exported': (r) => r.status === 200 && r.body.includes('perflab_variant_info') });
}
