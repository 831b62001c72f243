// Login under an open model: logins arrive at RATE/s whatever the server does.
// ./perflab k6 login.js -e RATE=50 -e DURATION=60s -e VARIANT=login-after
// Mechanism to watch: perflab_login_http_connections_opened_total vs perflab_login_http_requests_total.
// RATE (50)  DURATION (60s)  USERS (100000)  MAX_VUS (200)  SUMMARY (k6/lib/summary.js); any login variant.
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, tags, arrivalRate, json, withArm } from './lib/common.js';
import { requireApp, requireLogin } from './lib/preconditions.js';
import { summaryLine } from './lib/summary.js';
import { MEMBER_PASSWORD, required } from './lib/credentials.js';

// this install's credentials (lib/credentials.js): the stub's member password
const PASSWORD = required(MEMBER_PASSWORD, 'MEMBER_PASSWORD');

export { handleSummary } from './lib/summary.js';

const USERS = Number(__ENV.USERS || 100000);

export const options = {
  tags,
  scenarios: { login: arrivalRate(__ENV.RATE || 50, __ENV.DURATION || '60s', 'login', __ENV.MAX_VUS || 200) },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{scenario:login}': ['p(95)<500'],
    checks: ['rate>0.99'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  requireApp();
  requireLogin('user1');
}

export function login() {
  const loginId = `user${1 + Math.floor(Math.random() * USERS)}`;
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ loginId, password: PASSWORD }),
    withArm({ headers: { 'Content-Type': 'application/json' }, tags: { name: 'login' } }));
  const body = json(res);
  check(res, {
    'login 200': (r) => r.status === 200,
    'bearer token': () => body !== null && body.tokenType === 'Bearer' && body.accessToken.length > 20,
  });
}

summaryLine((data) => {
  const d = data.metrics['http_req_duration{scenario:login}'] || data.metrics.http_req_duration;
  const v = d.values;
  return `login ${tags.variant}: ${data.metrics.http_reqs.values.rate.toFixed(1)} req/s, ` +
    `p50 ${v.med.toFixed(1)} ms, p95 ${v['p(95)'].toFixed(1)} ms, p99 ${v['p(99)'].toFixed(1)} ms, ` +
    `failed ${(100 * data.metrics.http_req_failed.values.rate).toFixed(2)}%\n`;
});
