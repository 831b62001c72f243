#!/usr/bin/env bash
# The app's secrets, generated once per checkout: PERFLAB_SECRETS_DIR (default .perflab/secrets, relative to the
# repository root, where the app imports it as a config tree) gets one file per property, perflab.security.jwt.secret
# (signs access tokens) and perflab.security.hash.secret (keys PIN hashes and request fingerprints), each 48
# random bytes in base64 without a newline. Idempotent: a file already there is kept, and nothing is printed.
# The directory is 700 and the files 600; the development defaults committed in application.yml are refused by
# the app. Python callers read them through tooling/perflab/lab/labsecrets.py.
# Also the auth API stub's TLS key pair (openssl): the stub (stack/native.sh) presents PERFLAB_STUB_TLS_DIR (default
# stub-tls beside the secrets directory, .perflab/stub-tls)/auth-api.p12, whose password is auth-api.password beside
# it, and the app trusts only its certificate, which the config-tree file
# spring.ssl.bundle.pem.auth-api.truststore.certificate holds (written from the key pair, never from a new one).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${PERFLAB_SECRETS_DIR:-.perflab/secrets}
case $DIR in /*) ;; *) DIR=$ROOT/$DIR ;; esac

umask 077
mkdir -p "$DIR"
chmod 700 "$DIR"
# credential NAME COMMAND...: COMMAND's output into NAME (600) unless NAME is there already (COMMAND runs only then:
# every ./perflab command passes here, and a run starts hundreds); a hard link never replaces a file another launch
# wrote meanwhile: the first one wins, every app shares it
credential() {
  local file=$DIR/$1 tmp value
  [ -s "$file" ] && return 0
  shift
  value=$("$@")
  tmp=$(mktemp "$DIR/.${file##*/}.XXXXXX")
  printf '%s' "$value" >"$tmp"
  chmod 600 "$tmp"
  ln "$tmp" "$file" 2>/dev/null || true
  rm -f "$tmp"
  [ -s "$file" ] || { echo "perflab secrets: could not write $file" >&2; exit 1; }
  echo "perflab secrets: generated $file" >&2
}
key48() { head -c 48 /dev/urandom | base64 -w0; }
for name in perflab.security.jwt.secret perflab.security.hash.secret; do
  credential "$name" key48
done

# The credentials the auth API stub accepts (rendered into its mappings by stack/stub-mappings.sh) and the seeded
# wallets' PIN, read by everything that logs in (tooling/perflab/lab/labsecrets.py, k6 through ./perflab k6): member-password
# (user1..user100000), admin-login and admin-password (the admin; the stub answers its studentId A-perflab-admin,
# which perflab.security.admin.ids, also written here, makes an admin), member-pin (4 digits, never 1234 nor 9xxx) and
# perflab.login.auth-api.warmup.password (the stub's warm-up account, the only one of them the app reads).
# Names without dots and a perflab.* prefix: the config tree adds them to the app's environment, where nothing binds
# them.
random_of() { # random_of CLASS N: N random characters of the tr class CLASS (read whole: no SIGPIPE under pipefail)
  local value
  value=$(head -c 4096 /dev/urandom | LC_ALL=C tr -dc "$1")
  printf '%s' "${value:0:$2}"
}
pin() { # 4 random digits, never the repository's 1234 and never 9xxx (the abuse suite's wrong PINs)
  local value=1234
  while [ "$value" = 1234 ]; do value=$(random_of 0-8 1)$(random_of 0-9 3); done
  printf '%s' "$value"
}
admin_login() { printf 'admin-%s' "$(random_of a-z0-9 12)"; }
credential member-password random_of A-Za-z0-9 32
credential member-pin pin
credential admin-login admin_login
credential admin-password random_of A-Za-z0-9 32
credential perflab.login.auth-api.warmup.password random_of A-Za-z0-9 32
credential perflab.security.admin.ids printf %s A-perflab-admin
# Redis' password: the native Redis requires it (stack/native.sh up_redis, from a 600 config file), the app reads it
# from the config tree, the suites and the seeder through tooling/perflab/lab/labsecrets.py
credential spring.data.redis.password random_of A-Za-z0-9 32
# the native MariaDB's password for PERFLAB_DB_USER (stack/native.sh up_mariadb sets it; ./perflab exports it as
# PERFLAB_DB_PASSWORD unless that is set: .env's value is compose's default only)
credential mariadb-password random_of A-Za-z0-9 32
# the native WireMock's admin API (/__admin, on the stub's ports) takes HTTP Basic perflab-admin-api:<this>; nothing
# in perflab calls it, so it is there for a person who needs it (stack/native.sh up_wiremock)
credential wiremock-admin-password random_of A-Za-z0-9 32

TLS=${PERFLAB_STUB_TLS_DIR:-$(dirname "$DIR")/stub-tls}
case $TLS in /*) ;; *) TLS=$ROOT/$TLS ;; esac
TRUST=$DIR/spring.ssl.bundle.pem.auth-api.truststore.certificate
if [ ! -s "$TLS/auth-api.p12" ] || [ ! -s "$TLS/auth-api.password" ]; then
  command -v openssl >/dev/null || { echo "perflab secrets: openssl is needed for the stub's TLS key pair" >&2; exit 1; }
  mkdir -p "$TLS"
  chmod 700 "$TLS"
  work=$(mktemp -d "$TLS/.new.XXXXXX")
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=perflab auth-api stub" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:wiremock,DNS:toxiproxy" \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
  password=$(head -c 24 /dev/urandom | base64 -w0 | tr -d '/+=')
  openssl pkcs12 -export -name auth-api -inkey "$work/key.pem" -in "$work/cert.pem" -passout "pass:$password" \
    -out "$work/auth-api.p12"
  printf '%s' "$password" >"$work/auth-api.password"
  chmod 600 "$work"/*
  mv "$work/auth-api.password" "$TLS/auth-api.password"
  mv "$work/auth-api.p12" "$TLS/auth-api.p12"
  rm -rf "$work" "$TRUST"
  echo "perflab secrets: generated the stub's TLS key pair in $TLS (the app trusts only its certificate)" >&2
fi
if [ ! -s "$TRUST" ]; then # the certificate of the key pair the stub presents, never a new pair's
  tmp=$(mktemp "$DIR/.trust.XXXXXX")
  openssl pkcs12 -in "$TLS/auth-api.p12" -nokeys -clcerts -passin "pass:$(cat "$TLS/auth-api.password")" 2>/dev/null \
    | openssl x509 >"$tmp"
  chmod 600 "$tmp"
  mv "$tmp" "$TRUST"
fi
