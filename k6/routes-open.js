// The open model of k6/routes.js: requests arrive at RATE per second whatever the server does, so a slow
// variant cannot slow the clock that measures it (docs/design.md). Pick RATE below the variant's closed-model TPS.
//   RATE=20 DURATION=60s VARIANT=route-after ./perflab k6 routes-open.js
//   UNIVS (1,2,3)  MAX_VUS (200)  SUMMARY (k6/lib/summary.js)
// Needs the route data set (./perflab up loads it; ./perflab seed route).
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, tags, arrivalRate } from './lib/common.js';
import { bearer } from './lib/route-auth.js';
import { appVariant, fail, requireApp, requireRoutes, seedCommand } from './lib/preconditions.js';

export { handleSummary } from './lib/summary.js';

const UNIVS = (__ENV.UNIVS || '1,2,3').split(',').map(Number);

export const options = {
  tags,
  scenarios: { routes: arrivalRate(__ENV.RATE || 10, __ENV.DURATION || '120s', 'routes', Number(__ENV.MAX_VUS || 200)) },
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  thresholds: { http_req_failed: ['rate<0.01'], dropped_iterations: ['count<1'] },
};

export function setup() {
  requireApp();
  // the default rate outruns a variant that builds the routes on every read (no cache: about 6/s on 2 cores),
  // and every request it drops fails the run: such a variant needs a rate chosen for it
  if (!__ENV.RATE && appVariant().knobs['route.cache'] === 'off') {
    fail('the app builds the routes on every read (perflab.route.cache=off), slower than the default 10/s: give ' +
      'a rate below its throughput (-e RATE=3), or start the cached variant with ./perflab up --profile route-after');
  }
  requireRoutes(UNIVS, bearer(), seedCommand('route', UNIVS.join(',') === '1,2,3' ? '' : ` --univs ${UNIVS.join(',')}`));
}

// each VU reads as a member of its own: the app refuses a member's third route read in flight (429,
// perflab.route.member-concurrency), and a VU has one at a time
let memberHeaders;

export function routes() {
  memberHeaders = memberHeaders || { Authorization: bearer(__VU, `k6-${__VU}`) };
  const univ = UNIVS[Math.floor(Math.random() * UNIVS.length)];
  const res = http.get(`${BASE_URL}/api/universities/${univ}/routes`, { headers: memberHeaders, responseType: 'none', timeout: '60s' });
  check(res, { 'status 200': (r) => r.status === 200 });
}
