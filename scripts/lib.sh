# Shared by scripts/*.sh (run through ./perflab, which sets PERFLAB_ROOT, PERFLAB_BIN, JAVA_HOME, APP_URL).
PERFLAB=${PERFLAB_ROOT:?run through ./perflab}/perflab
K6=$PERFLAB_BIN/k6

# restart_app ARGS...: a fresh app process with these app arguments; quiet unless it fails
restart_app() {
  "$PERFLAB" app stop >/dev/null
  "$PERFLAB" app start -- "$@" >/tmp/perflab-exp-start.log 2>&1 || { cat /tmp/perflab-exp-start.log >&2; return 1; }
}

# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else if (NR % 2) print a[(NR+1)/2]; else printf "%.1f\n", (a[NR/2]+a[NR/2+1])/2}'; }

# counter PREFIX: the sum of the app's Prometheus series that start with PREFIX, a metric name
# (all its series) or a name with the start of its labels (perflab_x_total{outcome="y")
counter() {
  curl -fs "$APP_URL/actuator/prometheus" | awk -v p="$1" 'index($0, p) == 1 {
    rest = substr($0, length(p) + 1); if (p ~ /[{]/ || rest ~ /^[{ ]/) s += $NF } END {printf "%d\n", s}'
}
