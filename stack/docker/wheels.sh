#!/usr/bin/env bash
# The runner image's Python packages as wheels in a folder of the build context (default stack/docker/wheels), for an
# engine that cannot reach PyPI: the runner's Dockerfile stage installs from PERFLAB_PIP_WHEELS when it names one.
# Used by stack/docker/compose-ci.sh and ./perflab newcomer --docker; by hand:
#   bash stack/docker/wheels.sh && PERFLAB_PIP_WHEELS=stack/docker/wheels ./perflab ab wallet --smoke
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
./perflab python -m pip download -q --disable-pip-version-check --only-binary=:all: -d "${1:-stack/docker/wheels}" \
  -r tooling/requirements.txt -r tooling/requirements-dev.txt
