#!/usr/bin/env bash
# Seed 003's experiment: after a fresh start, how much slower is the first login than the second?
# Restarts the app ROUNDS times (default 5) per combination and times two logins with curl, as the seed did.
# ./perflab exp first-request [ROUNDS]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ROUNDS=${1:-5}
COMBOS=("no-warmup/per-request:--perflab.login.warmup=off --perflab.login.client=per-request"
        "warmup/per-request:--perflab.login.warmup=on --perflab.login.client=per-request"
        "warmup/pooled:--perflab.login.warmup=on --perflab.login.client=pooled")
out=$(mktemp -d)
trap '"$PERFLAB" app stop >/dev/null' EXIT

login_ms() { # login_ms LOGIN_ID: wall time of one login in ms, failing on anything but 200
  local r
  r=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H 'Content-Type: application/json' \
    -d "{\"loginId\":\"$1\",\"password\":\"perflab-pass\"}" "$APP_URL/api/auth/login")
  [ "${r%% *}" = 200 ] || { echo "login answered ${r%% *}" >&2; return 1; }
  awk -v t="${r#* }" 'BEGIN {printf "%.1f\n", t * 1000}'
}

printf '%-22s %5s %9s %9s %6s\n' combination round first_ms second_ms ratio
for combo in "${COMBOS[@]}"; do
  name=${combo%%:*}; args=${combo#*:}
  for round in $(seq 1 "$ROUNDS"); do
    # shellcheck disable=SC2086
    restart_app $args
    first=$(login_ms "user$((1000 + round))")
    second=$(login_ms "user$((2000 + round))")
    ratio=$(awk -v a="$first" -v b="$second" 'BEGIN {printf "%.2f", a / b}')
    printf '%-22s %5s %9s %9s %6s\n' "$name" "$round" "$first" "$second" "$ratio"
    echo "$first $second $ratio" >>"$out/${name//\//_}"
  done
done
echo
printf '%-22s %15s %16s %12s\n' combination median_first_ms median_second_ms median_ratio
for combo in "${COMBOS[@]}"; do
  name=${combo%%:*}; f=$out/${name//\//_}
  printf '%-22s %15s %16s %12s\n' "$name" "$(cut -d' ' -f1 "$f" | median)" "$(cut -d' ' -f2 "$f" | median)" "$(cut -d' ' -f3 "$f" | median)"
done
