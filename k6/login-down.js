// Logins while the auth API is down: every answer must be a fast 503 with Retry-After.
// Used by ./perflab ab circuit-open, which cuts the API off with Toxiproxy first; setup() stops the run when
// the API still answers. RATE (50)  DURATION (15s)  SUMMARY (k6/lib/summary.js)
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, tags, arrivalRate, json } from './lib/common.js';
import { fail, requireApp } from './lib/preconditions.js';
import { summaryLine } from './lib/summary.js';
import { MEMBER_PASSWORD, required } from './lib/credentials.js';

// this install's credentials (lib/credentials.js): the stub's member password
const PASSWORD = required(MEMBER_PASSWORD, 'MEMBER_PASSWORD');

export { handleSummary } from './lib/summary.js';

export const options = {
  tags,
  scenarios: { down: arrivalRate(__ENV.RATE || 50, __ENV.DURATION || '15s', 'down', 100) },
  // the scenario's sub-metrics are declared so that setup()'s login is not counted
  thresholds: { checks: ['rate==1'], 'http_req_duration{scenario:down}': ['max>=0'], 'http_reqs{scenario:down}': ['count>=0'] },
  summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  requireApp();
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ loginId: 'user1', password: PASSWORD }),
    { headers: { 'Content-Type': 'application/json' }, responseCallback: http.expectedStatuses(200, 503), tags: { name: 'precondition' } });
  if (res.status !== 503) {
    const body = json(res);
    fail(`this script needs the auth API down, but a login answers ${res.status}${body && body.code ? ` ${body.code}` : ''}: run ./perflab ab circuit-open, which cuts it off with Toxiproxy`);
  }
}

export function down() {
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ loginId: 'user1', password: PASSWORD }),
    { headers: { 'Content-Type': 'application/json' }, responseCallback: http.expectedStatuses(503) });
  check(res, { '503': (r) => r.status === 503, 'Retry-After': (r) => r.headers['Retry-After'] !== undefined });
}

summaryLine((data) => {
  const d = data.metrics['http_req_duration{scenario:down}'].values;
  return `${tags.variant}: ${data.metrics['http_reqs{scenario:down}'].values.count} logins while down, p50 ${d.med.toFixed(1)} ms, ` +
    `p95 ${d['p(95)'].toFixed(1)} ms, p99 ${d['p(99)'].toFixed(1)} ms, max ${d.max.toFixed(1)} ms, ` +
    `all 503 + Retry-After: ${data.metrics.checks.values.rate === 1}\n`;
});
