#!/bin/sh
# stack/stub-mappings.sh SECRETS OUT: the auth API stub's WireMock root, rendered for one install. OUT/mappings gets
# wiremock/mappings/* as committed (no credential in them) and wiremock/templates/*.json with @MEMBER_PASSWORD@,
# @ADMIN_LOGIN@, @ADMIN_PASSWORD@ and @WARMUP_PASSWORD@ replaced by the files member-password, admin-login,
# admin-password and perflab.login.auth-api.warmup.password in SECRETS (stack/secrets.sh, compose's secrets service,
# the Kubernetes Secret). A value must be letters, digits or '-' (what the generators write), so nothing escapes the
# JSON string. OUT is 700 and its files 600 (they hold the credentials); the whole of OUT/mappings is replaced.
# POSIX sh and sed only: compose runs it in an alpine container. WIREMOCK_SOURCE overrides the committed wiremock/.
set -eu
[ $# -eq 2 ] || { echo "usage: stack/stub-mappings.sh SECRETS_DIR OUT_DIR" >&2; exit 2; }
SECRETS=$1
OUT=$2
SOURCE=${WIREMOCK_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)/wiremock}

value() { # value FILE: the credential in SECRETS/FILE, checked
  [ -s "$SECRETS/$1" ] || { echo "stub mappings: no $SECRETS/$1 (run stack/secrets.sh)" >&2; exit 1; }
  v=$(cat "$SECRETS/$1")
  case $v in *[!A-Za-z0-9-]*) echo "stub mappings: $1 holds characters other than letters, digits and '-'" >&2; exit 1 ;; esac
  printf '%s' "$v"
}
member=$(value member-password)
login=$(value admin-login)
admin=$(value admin-password)
warmup=$(value perflab.login.auth-api.warmup.password)

umask 077
mkdir -p "$OUT/__files" # WireMock's body files: none, but it would create the folder where it may not write
chmod 700 "$OUT"
work=$(mktemp -d "$OUT/.mappings.XXXXXX")
cp "$SOURCE"/mappings/*.json "$work/"
for template in "$SOURCE"/templates/*.json; do
  sed -e "s/@MEMBER_PASSWORD@/$member/g" -e "s/@ADMIN_LOGIN@/$login/g" -e "s/@ADMIN_PASSWORD@/$admin/g" \
    -e "s/@WARMUP_PASSWORD@/$warmup/g" "$template" >"$work/$(basename "$template")"
done
if grep -l '@[A-Z_]*@' "$work"/*.json >/dev/null 2>&1; then
  echo "stub mappings: a placeholder is left in $(grep -l '@[A-Z_]*@' "$work"/*.json | tr '\n' ' ')" >&2
  rm -rf "$work"
  exit 1
fi
chmod 600 "$work"/*.json
chmod 700 "$work"
rm -rf "$OUT/mappings.old"
[ -d "$OUT/mappings" ] && mv "$OUT/mappings" "$OUT/mappings.old"
mv "$work" "$OUT/mappings"
rm -rf "$OUT/mappings.old"
