#!/usr/bin/env bash
# Seed 002's experiment: 100 requests from 20 concurrent clients against a 1 s dependency, for
# platform threads (Tomcat max 10), virtual threads, and virtual threads behind the bulkhead.
# Each variant gets a fresh start and a discarded warm-up of the same load: one run of 100 requests, and for
# the bulkhead WARM_REJECTIONS (default 1000) requests, since 90 rejections leave the rejection path half
# compiled (three 400-request runs on one app: rejected p99 195, 51, 32 ms).
# ./perflab exp slow-dependency [DELAY_MS]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DELAY_MS=${1:-1000}
trap '"$PERFLAB" app stop >/dev/null' EXIT
COMBOS=("platform:--spring.profiles.active=threads-platform --perflab.login.client=pooled --perflab.login.guard=none"
        "virtual:--spring.profiles.active=threads-virtual --perflab.login.client=pooled --perflab.login.guard=none"
        "bulkhead:--spring.profiles.active=threads-virtual --perflab.login.client=pooled --perflab.login.guard=bulkhead")
for combo in "${COMBOS[@]}"; do
  name=${combo%%:*}; args=${combo#*:}
  # shellcheck disable=SC2086
  restart_app $args
  # warm-up, discarded: the same load, so that no variant is measured on a cold JIT
  warm=100
  [ "$name" = bulkhead ] && warm=${WARM_REJECTIONS:-1000}
  "$K6" run --quiet --no-color -e BASE_URL="$APP_URL" -e VARIANT="$name" -e DELAY_MS="$DELAY_MS" -e REQUESTS="$warm" \
    "$PERFLAB_ROOT/k6/lab-dependency.js" >/dev/null 2>&1 || true
  "$K6" run --quiet --no-color -e BASE_URL="$APP_URL" -e VARIANT="$name" -e DELAY_MS="$DELAY_MS" \
    "$PERFLAB_ROOT/k6/lab-dependency.js" 2>/dev/null | grep -E "^$name:"
done
