#!/usr/bin/env bash
# The app's secrets, generated once per checkout: PERFLAB_SECRETS_DIR (default .perflab/secrets, relative to the
# repository root, where the app imports it as a config tree) gets one file per property, perflab.security.jwt.secret
# (signs access tokens) and perflab.security.hash.secret (keys PIN hashes and request fingerprints), each 48
# random bytes in base64 without a newline. Idempotent: a file already there is kept, and nothing is printed.
# The directory is 700 and the files 600; the development defaults committed in application.yml are refused by
# the app. Python callers read them through ab/labsecrets.py.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${PERFLAB_SECRETS_DIR:-.perflab/secrets}
case $DIR in /*) ;; *) DIR=$ROOT/$DIR ;; esac

umask 077
mkdir -p "$DIR"
chmod 700 "$DIR"
for name in perflab.security.jwt.secret perflab.security.hash.secret; do
  file=$DIR/$name
  [ -s "$file" ] && continue
  tmp=$(mktemp "$DIR/.$name.XXXXXX")
  printf '%s' "$(head -c 48 /dev/urandom | base64 -w0)" >"$tmp"
  chmod 600 "$tmp"
  # a hard link never replaces a file another launch wrote meanwhile: the first one wins, every app shares it
  ln "$tmp" "$file" 2>/dev/null || true
  rm -f "$tmp"
  [ -s "$file" ] || { echo "perflab secrets: could not write $file" >&2; exit 1; }
  echo "perflab secrets: generated $file" >&2
done
