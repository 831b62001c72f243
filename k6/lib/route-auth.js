// A Bearer token for perflab, signed in k6 (HS256, k6/crypto) with the JWT secret the app uses: JWT_SECRET, which
// ./perflab k6 and the runner take from .perflab/secrets/perflab.security.jwt.secret (stack/secrets.sh), else the file
// JWT_SECRET_FILE names (compose's k6 reads the app's config tree in the volume perflab-secrets). There is no
// default: the app refuses the development secret committed in the repository. Claims as TokenService writes them:
// iss perflab, sub a member id, login.
import crypto from 'k6/crypto';
import encoding from 'k6/encoding';

const SECRET = __ENV.JWT_SECRET || (__ENV.JWT_SECRET_FILE ? open(__ENV.JWT_SECRET_FILE).replace(/\n$/, '') : '');
if (!SECRET) {
  throw new Error('perflab: JWT_SECRET is not set: run the script with ./perflab k6, or pass -e JWT_SECRET="$(cat ' +
    '.perflab/secrets/perflab.security.jwt.secret)" (the app\'s generated secret; stack/secrets.sh creates the file), ' +
    'or -e JWT_SECRET_FILE=<that file>');
}

export function bearer(memberId = 1, login = 'k6') {
  const now = Math.floor(Date.now() / 1000);
  const head = encoding.b64encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' }), 'rawurl');
  const body = encoding.b64encode(JSON.stringify({ iss: 'perflab', sub: String(memberId), login, iat: now, exp: now + 3600 }), 'rawurl');
  const signature = crypto.hmac('sha256', SECRET, `${head}.${body}`, 'base64rawurl');
  return `Bearer ${head}.${body}.${signature}`;
}
