#!/usr/bin/env bash
# Docker Compose v2 as a CLI plugin of perflab's own DOCKER_CONFIG, built once from the Go module proxy
# (go install refuses the module for its exclude directives, so: go mod download, then go build ./cmd; about
# 4 min on 2 cores) and cached under $CACHE/compose-<version>. Prints the plugin's path.
# Usage: stack/docker/compose-plugin.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

binary=$CACHE/compose-$COMPOSE_VERSION/docker-compose
if [ ! -x "$binary" ]; then
  if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH=$PATH:/usr/local/go/bin; fi
  command -v go >/dev/null || die "Go is needed to build Docker Compose $COMPOSE_VERSION"
  say "building Docker Compose $COMPOSE_VERSION with go build (about 4 min on 2 cores, once)" >&2
  src=$(go mod download -json "github.com/docker/compose/v2@$COMPOSE_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || die "go mod download github.com/docker/compose/v2@$COMPOSE_VERSION gave no source directory"
  mkdir -p "$(dirname "$binary")"
  (cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
    -ldflags "-w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" -o "$binary.part" ./cmd)
  mv "$binary.part" "$binary"
fi
mkdir -p "$DOCKER_CONFIG/cli-plugins"
ln -sfn "$binary" "$DOCKER_CONFIG/cli-plugins/docker-compose"
echo "$DOCKER_CONFIG/cli-plugins/docker-compose"
