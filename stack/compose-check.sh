#!/usr/bin/env bash
# Validates docker-compose.yml with the Compose Specification's own loader (compose-go, pinned in
# stack/compose-check/go.mod), without and with the `load` profile: what `docker compose` would reject fails here,
# on a machine without Docker. Builds the checker once into the native stack's bin dir (go build, ~1 min the
# first time), keyed by a hash of its sources. The checker also fails when the stack is not closed (a port published
# beyond 127.0.0.1, WireMock or Toxiproxy published, Redis without a password: docs/deployment-security.md); a
# self-test then runs it on stack/compose-check/testdata/bad-*.yml, each of which must fail with the problem its first
# line names. Each override file of compose/ is checked merged over the compose file. Usage: stack/compose-check.sh [compose file]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC=$ROOT/stack/compose-check
# shellcheck source=stack/go-tool.sh
source "$ROOT/stack/go-tool.sh"
tool=$(go_tool compose-check compose-go/v2)
cd "$ROOT"
"$tool" -f "${1:-docker-compose.yml}" -profiles ",load"
# the case studies' settings (compose/*.yml), each merged over the compose file as `docker compose -f ... -f ...` does
for override in compose/*.yml; do
  "$tool" -f "${1:-docker-compose.yml},$override" -profiles ""
done

# self-test: the closed-stack rules reject what they must (the same cases as main_test.go, without compiling tests)
for bad in "$SRC"/testdata/bad-*.yml; do
  expected=$(sed -n '1s/^# expect: //p' "$bad")
  if out=$("$tool" -f "$bad" -profiles "" 2>&1); then
    echo "compose-check: self-test: ${bad#"$ROOT"/} passed, but it must fail with: $expected" >&2; exit 1
  fi
  grep -qF -- "$expected" <<<"$out" || {
    echo "compose-check: self-test: ${bad#"$ROOT"/} failed otherwise than with: $expected" >&2; echo "$out" >&2; exit 1; }
done
"$tool" -f "$SRC/testdata/good-closed.yml" -profiles "" >/dev/null
echo "compose-check: self-test: $(ls "$SRC"/testdata/bad-*.yml | wc -l) broken compose files rejected, the closed one accepted"
