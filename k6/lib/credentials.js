// This install's credentials (stack/secrets.sh; compose's secrets service): what the auth API stub accepts and the
// seeded wallets' PIN. ./perflab k6 and the runner pass them as MEMBER_PASSWORD, MEMBER_PIN, ADMIN_LOGIN and
// ADMIN_PASSWORD; otherwise they are read from the files of the same names (member-password, ...) in
// PERFLAB_SECRETS_DIR (compose's k6 reads the app's config tree in the volume perflab-secrets). There is no
// default: the repository's old ones (perflab-pass, 1234, perflab-admin) open nothing.
const DIR = __ENV.PERFLAB_SECRETS_DIR || '';

function read(variable, file) {
  if (__ENV[variable]) return __ENV[variable];
  if (!DIR) return '';
  try {
    return open(`${DIR}/${file}`).replace(/\n$/, '');
  } catch (e) {
    return '';
  }
}

export const MEMBER_PASSWORD = read('MEMBER_PASSWORD', 'member-password');
export const MEMBER_PIN = read('MEMBER_PIN', 'member-pin');
export const ADMIN_LOGIN = read('ADMIN_LOGIN', 'admin-login');
export const ADMIN_PASSWORD = read('ADMIN_PASSWORD', 'admin-password');

/** `value`, or the run stops before it starts with one line that says where it comes from. */
export function required(value, variable) {
  if (!value) {
    throw new Error(`perflab: ${variable} is not set: run the script with ./perflab k6 (it passes this install's ` +
      'credentials from .perflab/secrets, which stack/secrets.sh writes), or pass -e PERFLAB_SECRETS_DIR=<that folder>');
  }
  return value;
}
