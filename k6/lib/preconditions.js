// What a script needs before it loads the app, checked in setup(): the app answers, a login works, the data set
// is loaded, the app runs the variant the script needs. A miss stops the run at once (exec.test.abort) with ONE
// line that names the command to run, instead of a run whose requests all fail.
import http from 'k6/http';
import exec from 'k6/execution';
import { BASE_URL, json } from './common.js';
import { ADMIN_LOGIN, ADMIN_PASSWORD, MEMBER_PASSWORD, required } from './credentials.js';

// ./perflab k6 passes the database the app was started on, so that the commands below can name it
const DB = __ENV.PERFLAB_DB_NAME && __ENV.PERFLAB_DB_NAME !== 'perflab' ? ` --db ${__ENV.PERFLAB_DB_NAME}` : '';
const params = (extra = {}) => Object.assign({ timeout: '60s', tags: { name: 'precondition' } }, extra);

export function fail(line) {
  exec.test.abort(`perflab: ${line}`);
}

export function seedCommand(dataset, options = '') {
  return `./perflab seed ${dataset}${DB}${options}`;
}

export function requireApp() {
  const res = http.get(`${BASE_URL}/actuator/health/readiness`, params({ timeout: '5s' }));
  if (res.status !== 200) {
    fail(`the app does not answer at ${BASE_URL} (${res.status === 0 ? res.error : `readiness ${res.status}`}): start it with ./perflab up`);
  }
}

/** The app's knobs from GET /actuator/info: { variant: 'after', knobs: { 'route.cache': 'redis', ... } }. */
export function appVariant() {
  const info = json(http.get(`${BASE_URL}/actuator/info`, params()));
  const perflab = (info && info.perflab) || {};
  return { variant: perflab.variant || 'unknown', knobs: perflab.knobs || {} };
}

/** Stops the run unless the app runs every knob in `expected` ({ 'route.cache': 'redis' }); `command` starts one that does. */
export function requireKnobs(expected, command) {
  const { knobs } = appVariant();
  const wrong = Object.keys(expected).filter((knob) => knobs[knob] !== expected[knob]);
  if (wrong.length > 0) {
    fail(`this script needs ${wrong.map((k) => `perflab.${k}=${expected[k]}`).join(', ')} but the app runs ` +
      `${wrong.map((k) => `perflab.${k}=${knobs[k] || '?'}`).join(', ')}: restart it with ${command}`);
  }
}

// this install's admin (lib/credentials.js); /api/lab/** and the route ceiling need its role
export { ADMIN_LOGIN, ADMIN_PASSWORD };

/** Logs in through the app (the external auth API behind it); returns the access token or stops the run. */
export function requireLogin(loginId = 'user1', password = required(MEMBER_PASSWORD, 'MEMBER_PASSWORD')) {
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ loginId, password }),
    params({ headers: { 'Content-Type': 'application/json' } }));
  const body = json(res);
  if (res.status === 200 && body && body.accessToken) return body.accessToken;
  const code = body && body.code ? ` ${body.code}` : '';
  if (res.status === 503) {
    fail(`login as ${loginId} failed: 503${code}, the auth API (WireMock behind Toxiproxy) does not answer: start it with ./perflab stack up wiremock toxiproxy`);
  }
  fail(`login as ${loginId} failed: ${res.status || res.error}${code}: check the auth API stub with ./perflab status`);
  return null;
}

/** The admin's access token (ADMIN_LOGIN, ADMIN_PASSWORD: this install's admin), or the run stops. */
export function requireAdminLogin() {
  return requireLogin(required(ADMIN_LOGIN, 'ADMIN_LOGIN'), required(ADMIN_PASSWORD, 'ADMIN_PASSWORD'));
}

/** Stops the run unless the member behind `token` has a wallet, i.e. the wallet data set is loaded. */
export function requireWalletData(token) {
  const res = http.get(`${BASE_URL}/api/wallets/me`, params({ headers: { Authorization: `Bearer ${token}` } }));
  if (res.status !== 200) {
    const body = json(res);
    fail(`the wallet data set is not loaded in the app's database (GET /api/wallets/me: ${res.status}${body && body.code ? ` ${body.code}` : ''}): load it with ${seedCommand('wallet')}`);
  }
}

/** Stops the run unless every university in `univs` has routes; `command` loads them. Reads each in full once. */
export function requireRoutes(univs, authorization, command) {
  for (const univ of univs) {
    const res = http.get(`${BASE_URL}/api/universities/${univ}/routes`, params({ headers: { Authorization: authorization }, timeout: '120s' }));
    const body = res.status === 200 ? json(res) : null;
    if (body === null || !(body.routeCount > 0)) {
      const problem = json(res);
      fail(`university ${univ} has no routes in the app's database (${res.status}${problem && problem.code ? ` ${problem.code}` : ''}): load them with ${command}`);
    }
  }
}
