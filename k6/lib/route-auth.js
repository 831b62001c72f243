// A Bearer token for perflab, signed in k6 (HS256, k6/crypto) with the JWT secret the app uses: the dev default
// unless JWT_SECRET is given. Claims as TokenService writes them: iss perflab, sub a member id, login.
import crypto from 'k6/crypto';
import encoding from 'k6/encoding';

const SECRET = __ENV.JWT_SECRET || 'perflab-dev-secret-change-me-0123456789abcdef';

export function bearer(memberId = 1, login = 'k6') {
  const now = Math.floor(Date.now() / 1000);
  const head = encoding.b64encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' }), 'rawurl');
  const body = encoding.b64encode(JSON.stringify({ iss: 'perflab', sub: String(memberId), login, iat: now, exp: now + 3600 }), 'rawurl');
  const signature = crypto.hmac('sha256', SECRET, `${head}.${body}`, 'base64rawurl');
  return `Bearer ${head}.${body}.${signature}`;
}
