#!/usr/bin/env bash
# Validates docker-compose.yml with the Compose Specification's own loader (compose-go, pinned in
# stack/compose-check/go.mod), without and with the `load` profile: what `docker compose` would reject fails here,
# on a machine without Docker. Builds the checker once into the native stack's bin dir (go build, ~1 min the
# first time), keyed by a hash of its sources. Usage: stack/compose-check.sh [compose file]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC=$ROOT/stack/compose-check
BIN=$("$ROOT/stack/native.sh" bin)
hash=$(cat "$SRC/go.mod" "$SRC/go.sum" "$SRC/main.go" | sha256sum | cut -c1-12)
tool=$BIN/compose-check-$hash/compose-check
if [ ! -x "$tool" ]; then
  command -v go >/dev/null || { echo "perflab: Go is needed to build the compose checker (compose-go)" >&2; exit 1; }
  echo "building compose-check ($(grep -o 'compose-go/v2 v[0-9.]*' "$SRC/go.mod")) with go build, once"
  mkdir -p "$(dirname "$tool")"
  (cd "$SRC" && GOFLAGS=-mod=mod go build -o "$tool.part" . && mv "$tool.part" "$tool")
fi
cd "$ROOT"
"$tool" -f "${1:-docker-compose.yml}" -profiles ",load"
