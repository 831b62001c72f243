// Seed 001's load: 50 VUs for 120 s, each asking for a university's routes in a loop (a closed model, as the seed
// ran it; k6/routes-open.js is the open-model variant). Bodies are read and discarded (responseType none) so that
// k6 does not parse 4 MB of JSON per request on the machine it shares with the app; setup() checks one in full.
//   ./perflab k6 routes.js                                  seed shape
//   VUS=50 DURATION=60s VARIANT=route-after ./perflab k6 routes.js
//   ENDPOINT=cached-bytes ...                               the ceiling harness (cache=redis only:
//                                                           ./perflab up --profile route-after)
//   UNIVS (1,2,3)  SUMMARY (k6/lib/summary.js)
// Needs the route data set (./perflab up loads it; ./perflab seed route).
// Auth: a token signed in k6 with the app's JWT secret (k6/lib/route-auth.js); the ceiling harness needs the admin
// role, so with ENDPOINT=cached-bytes the script logs in as the stub's admin (ADMIN_LOGIN, ADMIN_PASSWORD).
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, tags } from './lib/common.js';
import { bearer } from './lib/route-auth.js';
import { requireAdminLogin, requireApp, requireKnobs, requireRoutes, seedCommand } from './lib/preconditions.js';

export { handleSummary } from './lib/summary.js';

const UNIVS = (__ENV.UNIVS || '1,2,3').split(',').map(Number);
const ENDPOINT = __ENV.ENDPOINT || 'routes'; // routes | cached-bytes
const path = (univ) => (ENDPOINT === 'routes' ? `/api/universities/${univ}/routes` : `/api/universities/${univ}/routes/cached-bytes`);

export const options = {
  tags,
  scenarios: {
    routes: { executor: 'constant-vus', vus: Number(__ENV.VUS || 50), duration: __ENV.DURATION || '120s', exec: 'routes' },
  },
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  thresholds: { http_req_failed: ['rate<0.01'], checks: ['rate>0.99'] },
};

export function setup() {
  requireApp();
  if (ENDPOINT === 'cached-bytes') requireKnobs({ 'route.cache': 'redis' }, './perflab up --profile route-after');
  const member = bearer();
  // one full response per university: the data is there, and the cache is warm
  requireRoutes(UNIVS, member, seedCommand('route', UNIVS.join(',') === '1,2,3' ? '' : ` --univs ${UNIVS.join(',')}`));
  return { headers: ENDPOINT === 'routes' ? null : { Authorization: `Bearer ${requireAdminLogin()}` } };
}

// each VU reads as a member of its own: the app refuses a member's third route read in flight (429,
// perflab.route.member-concurrency), and a VU has one at a time
let memberHeaders;
const headersOf = (data) => data.headers || (memberHeaders = memberHeaders || { Authorization: bearer(__VU, `k6-${__VU}`) });

export function routes(data) {
  const univ = UNIVS[(__VU + __ITER) % UNIVS.length];
  const res = http.get(`${BASE_URL}${path(univ)}`, { headers: headersOf(data), responseType: 'none', timeout: '60s', tags: { name: ENDPOINT } });
  check(res, { 'status 200': (r) => r.status === 200 });
}
