#!/usr/bin/env bash
# Validates every Grafana dashboard (grafana/dashboards/*.json) against Grafana's dashboard schema, decoded strictly
# with the Grafana Foundation SDK's Go types (pinned in stack/dashboard-check/go.mod): an unknown or misspelt field
# anywhere (the dashboard, templating, a panel, gridPos, fieldConfig, a target, a panel plugin's options by panel
# type) fails with the file, the panel's title and the field's path; so do an unknown panel type, a repeated key and a
# panel without a description. Builds the checker once into the native stack's bin dir (go build, ~1 min the first
# time), keyed by a hash of its sources; a self-test then runs it on stack/dashboard-check/testdata/, where each
# bad-*.json must fail with the one problem its description names. Usage: stack/dashboard-check.sh [dashboard.json ...]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=stack/go-tool.sh
source "$ROOT/stack/go-tool.sh"
tool=$(go_tool dashboard-check grafana-foundation-sdk/go)
cd "$ROOT"
[ $# -gt 0 ] || set -- grafana/dashboards/*.json
"$tool" "$@"
"$tool" -self-test stack/dashboard-check/testdata
