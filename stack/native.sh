#!/usr/bin/env bash
# perflab's stack without Docker: MariaDB, Redis, Prometheus (Debian packages), k6 and Toxiproxy
# (go install), WireMock standalone (Maven Central). Idempotent: `up` installs what is missing and starts
# what is not running. Usage: stack/native.sh up|down|status|install [service...]; install-lb installs HAProxy, the
# load balancer of `./perflab up --instances N` (only when several instances are asked for).
# Every .env value and PERFLAB_STATE may be overridden from the environment, so that a second stack can run
# beside the shared one (e.g. for the chaos suite, which stops MariaDB and Redis):
#   PERFLAB_STATE=/var/lib/perflab-2 PERFLAB_DB_PORT=3406 PERFLAB_REDIS_PORT=6479 PERFLAB_TOXIPROXY_PORT=8574 \
#   PERFLAB_WIREMOCK_PORT=8189 PERFLAB_WIREMOCK_HTTPS_PORT=8543 PERFLAB_TOXI_DB_PORT=13406 PERFLAB_TOXI_REDIS_PORT=16479 \
#   PERFLAB_TOXI_AUTH_HTTPS_PORT=18543 PERFLAB_TOXI_AUTH_HTTP_PORT=18189 stack/native.sh up mariadb redis toxiproxy wiremock
set -euo pipefail
# a Debian user's default PATH (/usr/local/bin:/usr/bin:/bin) lacks the sbin directories, where mariadbd lives
for sbin in /usr/sbin /sbin; do case ":$PATH:" in *":$sbin:"*) ;; *) PATH=$PATH:$sbin ;; esac; done; unset sbin
export PATH

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# .env gives defaults; a variable already set in the environment wins (as in ./perflab); MariaDB's password, unless
# set, is this install's (stack/secrets.sh: mariadb-password), read once the secrets exist (db_password)
DB_PASSWORD_EXPLICIT=${PERFLAB_DB_PASSWORD:+1}
while IFS='=' read -r key value; do
  if [[ $key =~ ^[A-Z_][A-Z0-9_]*$ ]] && [ -z "${!key+x}" ]; then export "$key=$value"; fi
done < "$ROOT/.env"

if [ "$(id -u)" = 0 ]; then STATE_DEFAULT=/var/lib/perflab; else STATE_DEFAULT=${XDG_STATE_HOME:-$HOME/.local/state}/perflab; fi
STATE=${PERFLAB_STATE:-$STATE_DEFAULT}
BIN=$STATE/bin RUN=$STATE/run LOG=$STATE/log
MAVEN_REPO=${PERFLAB_MAVEN_REPO:-https://repo.maven.apache.org/maven2}
MARIADB_BUFFER_POOL=${PERFLAB_MARIADB_BUFFER_POOL:-1G}
SERVICES=(mariadb redis wiremock toxiproxy prometheus)

say() { printf '%s\n' "$*"; }
die() { printf 'perflab stack: %s\n' "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_failed NAME WHY: the last lines of the service's log, headed by its name, then stop with WHY
start_failed() {
  local name=$1 why=$2
  if [ -s "$LOG/$name.log" ]; then
    printf '%s: the last lines of %s\n' "$name" "$LOG/$name.log" >&2
    tail -n 20 "$LOG/$name.log" | sed 's/^/  /' >&2
  else
    printf '%s: its log %s is empty\n' "$name" "$LOG/$name.log" >&2
  fi
  die "$why (log: $LOG/$name.log)"
}

# wait_port PORT NAME SECONDS [PID]: poll until the port accepts connections, or fail with the service's log;
# with PID, fail at once when that process has exited
wait_port() {
  local port=$1 name=$2 limit=${3:-60} pid=${4:-} i
  for ((i = 0; i < limit * 5; i++)); do
    port_open "$port" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      start_failed "$name" "$name exited before it opened port $port"
    fi
    sleep 0.2
  done
  start_failed "$name" "$name did not open port $port within ${limit}s"
}

pid_alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

check_platform() {
  if [ "$(uname -s)" != Linux ] || [ ! -f /etc/debian_version ]; then
    die "the native stack supports Debian and Ubuntu only. On $(uname -s) use Docker: docker compose up"
  fi
}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
  local missing=() pkg
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local began=$SECONDS
  say "installing ${missing[*]} (apt-get, once)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  say "installed ${missing[*]} in $((SECONDS - began)) s"
}

go_tool() { # go_tool NAME MODULE VERSION BINARY: go install into $BIN/NAME-VERSION and link $BIN/NAME
  local name=$1 module=$2 version=$3 binary=$4 dir=$BIN/$1-$3
  if [ ! -x "$dir/$binary" ]; then
    if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH=$PATH:/usr/local/go/bin; fi
    command -v go >/dev/null || die "Go is needed to build $name $version (or use Docker: docker compose up)"
    say "building $name $version with go install (k6 takes about 3 minutes on 2 cores, once)"
    local began=$SECONDS
    mkdir -p "$dir"
    GOBIN=$dir GOFLAGS=-mod=mod go install "$module@$version"
    say "built $name $version in $((SECONDS - began)) s"
  fi
  ln -sfn "$dir/$binary" "$BIN/$name"
}

install() {
  check_platform
  mkdir -p "$BIN" "$RUN" "$LOG" "$STATE/lib"
  apt_install mariadb-server mariadb-client redis-server prometheus curl
  go_tool k6 go.k6.io/k6 "$PERFLAB_K6_VERSION" k6
  go_tool toxiproxy-server github.com/Shopify/toxiproxy/v2/cmd/server "$PERFLAB_TOXIPROXY_VERSION" server
  local jar=$STATE/lib/wiremock-standalone-$PERFLAB_WIREMOCK_VERSION.jar
  if [ ! -s "$jar" ]; then
    say "downloading WireMock standalone $PERFLAB_WIREMOCK_VERSION from Maven Central (once)"
    local began=$SECONDS
    curl -fsSL -o "$jar.part" "$MAVEN_REPO/org/wiremock/wiremock-standalone/$PERFLAB_WIREMOCK_VERSION/wiremock-standalone-$PERFLAB_WIREMOCK_VERSION.jar"
    mv "$jar.part" "$jar"
    say "downloaded WireMock in $((SECONDS - began)) s"
  fi
}

# HAProxy from Debian's packages: the load balancer in front of several app instances (./perflab lb, docs/scale-out.md)
install_lb() {
  check_platform
  apt_install haproxy
  # the package's own service (on :80 with /etc/haproxy/haproxy.cfg) is not perflab's: perflab runs its own haproxy
  # processes with their own config, so the packaged one stays as Debian set it up
  command -v haproxy >/dev/null || die "haproxy is not on the PATH after apt-get install haproxy"
}

mariadb_client() { mariadb --socket="$RUN/mariadb.sock" -u"$(id -un)" "$@"; }

up_mariadb() {
  local data=$STATE/mariadb
  if port_open "$PERFLAB_DB_PORT"; then
    if ! pid_alive mariadb; then
      say "note: port $PERFLAB_DB_PORT is served by a MariaDB/MySQL perflab did not start; using it as is"
      return 0
    fi
  else
    local user_opt=()
    if [ "$(id -u)" = 0 ]; then user_opt=(--user=mysql); fi # mariadbd refuses to run as root
    if [ ! -d "$data/mysql" ]; then
      say "initialising MariaDB data directory $data"
      mkdir -p "$data"
      [ "$(id -u)" = 0 ] && chown mysql:mysql "$data"
      mariadb-install-db --no-defaults --datadir="$data" "${user_opt[@]}" --auth-root-authentication-method=socket \
        --skip-test-db >"$LOG/mariadb-install.log" 2>&1 || { tail -n 20 "$LOG/mariadb-install.log" >&2; die "mariadb-install-db failed"; }
    fi
    [ "$(id -u)" = 0 ] && chown mysql:mysql "$RUN" "$LOG"
    # buffer pool sized to hold the wallet data set (100k wallets, 1M history, 2M ledger rows)
    nohup mariadbd --no-defaults --datadir="$data" "${user_opt[@]}" \
      --port="$PERFLAB_DB_PORT" --bind-address=127.0.0.1 --socket="$RUN/mariadb.sock" --pid-file="$RUN/mariadb.pid" \
      --log-error="$LOG/mariadb.log" --innodb-buffer-pool-size="$MARIADB_BUFFER_POOL" --innodb-log-file-size=256M \
      --innodb-flush-log-at-trx-commit=1 --max-connections=500 --local-infile=1 --skip-name-resolve \
      --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci >>"$LOG/mariadb.log" 2>&1 &
    wait_port "$PERFLAB_DB_PORT" mariadb 60 $!
  fi
  # the user's password is this install's (db_password), set again on every up: another checkout's goes
  mariadb_client <<SQL
CREATE DATABASE IF NOT EXISTS \`$PERFLAB_DB_NAME\`;
CREATE DATABASE IF NOT EXISTS \`${PERFLAB_DB_NAME}_test\`;
CREATE USER IF NOT EXISTS '$PERFLAB_DB_USER'@'%' IDENTIFIED BY '$PERFLAB_DB_PASSWORD';
ALTER USER '$PERFLAB_DB_USER'@'%' IDENTIFIED BY '$PERFLAB_DB_PASSWORD';
GRANT ALL PRIVILEGES ON \`${PERFLAB_DB_NAME}%\`.* TO '$PERFLAB_DB_USER'@'%';
FLUSH PRIVILEGES;
SQL
}

# db_password: PERFLAB_DB_PASSWORD becomes this install's generated one unless the environment set it
db_password() {
  local file
  [ -n "$DB_PASSWORD_EXPLICIT" ] && return 0
  file=$(secrets_dir)/mariadb-password
  [ -s "$file" ] || die "no MariaDB password in $file: run stack/secrets.sh"
  PERFLAB_DB_PASSWORD=$(cat "$file")
  export PERFLAB_DB_PASSWORD
}

# secrets_dir: where stack/secrets.sh writes this checkout's secrets (PERFLAB_SECRETS_DIR, default .perflab/secrets)
secrets_dir() {
  local secrets=${PERFLAB_SECRETS_DIR:-.perflab/secrets}
  case $secrets in /*) ;; *) secrets=$ROOT/$secrets ;; esac
  echo "$secrets"
}

# stop_for_restart NAME PORT WHAT: a service of this stack started with another checkout's secrets is stopped, and
# its port waited for (at most 10 s), so that it starts again with WHAT
stop_for_restart() {
  local name=$1 port=$2
  echo "$name: restarting it with $3"
  stop_service "$name"
  for _ in $(seq 1 100); do port_open "$port" || break; sleep 0.1; done
  port_open "$port" && die "port $port is still held after stopping $name: stop what holds it"
  return 0
}

# up_redis: Redis requires this checkout's generated password (stack/secrets.sh: spring.data.redis.password, the
# file the app reads), given in a 600 config file, never on the command line, where ps shows it; one started with
# another password (another checkout's, or none) is restarted, as WireMock is
up_redis() {
  local password_file fingerprint
  password_file=$(secrets_dir)/spring.data.redis.password
  [ -s "$password_file" ] || die "no Redis password in $password_file: run stack/secrets.sh"
  fingerprint=$(sha256sum <"$password_file")
  if port_open "$PERFLAB_REDIS_PORT"; then
    if ! pid_alive redis; then
      say "note: port $PERFLAB_REDIS_PORT is served by a Redis perflab did not start; using it as is"
      return 0
    fi
    [ "$(cat "$RUN/redis.auth" 2>/dev/null)" = "$fingerprint" ] && return 0
    stop_for_restart redis "$PERFLAB_REDIS_PORT" "this checkout's password"
  fi
  mkdir -p "$STATE/redis"
  (umask 077; printf 'requirepass %s\n' "$(cat "$password_file")" >"$RUN/redis.conf")
  # redis-server daemonizes: what it says before that (a bad option, a missing binary) goes to its log too
  redis-server "$RUN/redis.conf" --port "$PERFLAB_REDIS_PORT" --bind 127.0.0.1 --daemonize yes --pidfile "$RUN/redis.pid" \
    --logfile "$LOG/redis.log" --dir "$STATE/redis" --save '' --appendonly no >>"$LOG/redis.log" 2>&1 \
    || start_failed redis "redis-server did not start"
  echo "$fingerprint" >"$RUN/redis.auth"
  wait_port "$PERFLAB_REDIS_PORT" redis 20
}

java_bin() {
  local candidate
  for candidate in "${JAVA_HOME:-}/bin/java" /usr/lib/jvm/temurin-25-jdk-amd64/bin/java "$(command -v java || true)"; do
    [ -x "$candidate" ] && { echo "$candidate"; return; }
  done
  die "no java found for WireMock (set JAVA_HOME)"
}

# up_wiremock: the stub presents this checkout's own TLS key pair (stack/secrets.sh) and accepts only its generated
# credentials; one started with another key pair or mappings (another checkout's, or before the secrets existed) is
# restarted, since the app trusts only its own
up_wiremock() {
  local secrets tls keystore password stubroot fingerprint admin
  secrets=$(secrets_dir)
  tls=${PERFLAB_STUB_TLS_DIR:-$(dirname "$secrets")/stub-tls} # where stack/secrets.sh makes it
  case $tls in /*) ;; *) tls=$ROOT/$tls ;; esac
  keystore=$tls/auth-api.p12
  [ -s "$keystore" ] || die "no stub key pair in $tls: run stack/secrets.sh"
  password=$(cat "$tls/auth-api.password")
  # the mappings with this install's credentials (stack/stub-mappings.sh), beside the secrets: 700, never committed
  stubroot=$(dirname "$secrets")/stub-root
  sh "$ROOT/stack/stub-mappings.sh" "$secrets" "$stubroot"
  admin=$secrets/wiremock-admin-password
  [ -s "$admin" ] || die "no WireMock admin password in $admin: run stack/secrets.sh"
  fingerprint=$( (cat "$keystore" "$admin"; cat "$stubroot"/mappings/*.json) | sha256sum)
  if port_open "$PERFLAB_WIREMOCK_PORT"; then
    [ "$(cat "$RUN/wiremock.keystore" 2>/dev/null)" = "$fingerprint" ] && return 0
    stop_for_restart wiremock "$PERFLAB_WIREMOCK_PORT" "this checkout's TLS key pair and credentials"
  fi
  # its arguments in a 600 file (java @file), not on the command line, where ps shows them to every user: the
  # keystore's password, and the admin API's credentials (/__admin shares the stub's ports; without them any local
  # user could add a mapping that accepts any password)
  (umask 077; printf '%s\n' -jar "$STATE/lib/wiremock-standalone-$PERFLAB_WIREMOCK_VERSION.jar" \
    --port "$PERFLAB_WIREMOCK_PORT" --https-port "$PERFLAB_WIREMOCK_HTTPS_PORT" --bind-address 127.0.0.1 \
    --root-dir "$stubroot" --disable-banner --no-request-journal --async-response-enabled true \
    --https-keystore "$keystore" --keystore-type PKCS12 --keystore-password "$password" \
    --key-manager-password "$password" --container-threads 200 \
    --admin-api-basic-auth "perflab-admin-api:$(cat "$admin")" >"$RUN/wiremock.args")
  nohup "$(java_bin)" -Xmx256m "@$RUN/wiremock.args" >"$LOG/wiremock.log" 2>&1 &
  echo $! >"$RUN/wiremock.pid"
  echo "$fingerprint" >"$RUN/wiremock.keystore"
  wait_port "$PERFLAB_WIREMOCK_PORT" wiremock 60 "$(cat "$RUN/wiremock.pid")"
}

# stack/toxiproxy.json with its listen and upstream ports taken from the environment (.env defaults: the same ports)
toxiproxy_config() {
  python3 - "$ROOT/stack/toxiproxy.json" >"$RUN/toxiproxy.json" <<'PY'
import json, os, sys
ports = {  # proxy -> (listen port variable, upstream port variable)
    "auth-api-https": ("PERFLAB_TOXI_AUTH_HTTPS_PORT", "PERFLAB_WIREMOCK_HTTPS_PORT"),
    "auth-api-http": ("PERFLAB_TOXI_AUTH_HTTP_PORT", "PERFLAB_WIREMOCK_PORT"),
    "mariadb": ("PERFLAB_TOXI_DB_PORT", "PERFLAB_DB_PORT"),
    "redis": ("PERFLAB_TOXI_REDIS_PORT", "PERFLAB_REDIS_PORT"),
}
proxies = json.load(open(sys.argv[1]))
for proxy in proxies:
    listen, upstream = ports[proxy["name"]]
    proxy["listen"] = proxy["listen"].rsplit(":", 1)[0] + ":" + os.environ[listen]
    proxy["upstream"] = proxy["upstream"].rsplit(":", 1)[0] + ":" + os.environ[upstream]
json.dump(proxies, sys.stdout, indent=1)
PY
}

up_toxiproxy() {
  if ! port_open "$PERFLAB_TOXIPROXY_PORT"; then
    toxiproxy_config
    nohup "$BIN/toxiproxy-server" -host 127.0.0.1 -port "$PERFLAB_TOXIPROXY_PORT" -config "$RUN/toxiproxy.json" \
      >"$LOG/toxiproxy.log" 2>&1 &
    echo $! >"$RUN/toxiproxy.pid"
    wait_port "$PERFLAB_TOXIPROXY_PORT" toxiproxy 20 "$(cat "$RUN/toxiproxy.pid")"
  fi
  auth_latency_toxics
}

# The auth API sits behind Toxiproxy with PERFLAB_AUTH_LATENCY_MS each way (stack/toxics.sh).
auth_latency_toxics() { sh "$ROOT/stack/toxics.sh" >/dev/null; }

# prometheus_targets [NAME=PORT ...]: what Prometheus scrapes (a file_sd file it rereads on change); without
# arguments the single app on PERFLAB_APP_PORT. ./perflab up writes it for one instance or for N.
prometheus_targets() {
  local file=$RUN/prometheus-app-targets.json spec entries=() tmp
  [ $# -gt 0 ] || set -- "app=$PERFLAB_APP_PORT"
  for spec in "$@"; do
    [[ $spec =~ ^([A-Za-z0-9_.-]+)=([0-9]+)$ ]] || die "prometheus-targets: NAME=PORT, not '$spec'"
    entries+=("{\"targets\": [\"127.0.0.1:${BASH_REMATCH[2]}\"], \"labels\": {\"app_instance\": \"${BASH_REMATCH[1]}\"}}")
  done
  mkdir -p "$RUN"
  tmp=$(mktemp "$RUN/.targets.XXXXXX")
  (IFS=,; echo "[${entries[*]}]") >"$tmp"
  mv "$tmp" "$file"
}

up_prometheus() {
  port_open "$PERFLAB_PROMETHEUS_PORT" && return 0
  mkdir -p "$STATE/prometheus" "$RUN"
  [ -f "$RUN/prometheus-app-targets.json" ] || prometheus_targets
  mkdir -p "$RUN/ab-targets"  # the A/B runner's variants, one file each while they run (tooling/perflab/lab/scrape.py)
  sed -e "s|__APP_TARGETS__|$RUN/prometheus-app-targets.json|" -e "s|__AB_TARGETS__|$RUN/ab-targets|" \
    "$ROOT/prometheus/prometheus-native.yml" >"$RUN/prometheus.yml"
  nohup prometheus --config.file="$RUN/prometheus.yml" --storage.tsdb.path="$STATE/prometheus" \
    --web.listen-address="127.0.0.1:$PERFLAB_PROMETHEUS_PORT" --web.enable-remote-write-receiver \
    --storage.tsdb.retention.time=7d >"$LOG/prometheus.log" 2>&1 &
  echo $! >"$RUN/prometheus.pid"
  wait_port "$PERFLAB_PROMETHEUS_PORT" prometheus 30 "$(cat "$RUN/prometheus.pid")"
}

# runs_service NAME PROGRAM: whether PROGRAM (the first word of a command line, without its directory) serves NAME
runs_service() {
  case $1:$2 in
    mariadb:mariadbd | mariadb:mysqld | redis:redis-server | wiremock:java | toxiproxy:toxiproxy-server* \
      | prometheus:prometheus) return 0 ;;
    *) return 1 ;;
  esac
}

# pid_on_port NAME PORT: the pid of the process listening on PORT when it runs NAME's program (a service restarted
# by a suite leaves no pid file); otherwise say what serves the port and fail, never "stopped" while it goes on serving
pid_on_port() {
  local name=$1 port=$2 pid program
  pid=$(ss -Hltnp "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2 || true)
  if [ -z "$pid" ]; then
    printf '%s: port %s is served by a process this stack did not start (no %s, and ss names no process of %s' \
      "$name" "$port" "$RUN/$name.pid" "$(id -un)" >&2
    printf ' on it): stop it yourself\n' >&2
    return 1
  fi
  program=$(ps -o args= -p "$pid" | awk '{print $1}' || true)
  program=${program##*/}
  if ! runs_service "$name" "$program"; then
    printf '%s: port %s is served by a process this stack did not start (pid %s runs %s): stop it yourself\n' \
      "$name" "$port" "$pid" "${program:-nothing ps can name}" >&2
    return 1
  fi
  printf '%s: no %s; stopping pid %s (%s), which serves port %s\n' "$name" "$RUN/$name.pid" "$pid" "$program" "$port" >&2
  echo "$pid"
}

# stop_service NAME: signal the service (by its pid file, else by the process on its port), then wait until its
# process has exited (MariaDB goes on shutting down after mariadb-admin returns), at most PERFLAB_STOP_WAIT seconds
# (60); only then kill -9
stop_service() {
  local name=$1 pid limit=${PERFLAB_STOP_WAIT:-60} began=$SECONDS i port
  if [ -f "$RUN/$name.pid" ]; then
    pid=$(cat "$RUN/$name.pid") # read first: mariadbd and redis-server delete their pid file as they exit
  else
    port=$(port_of "$name")
    port_open "$port" || return 0
    pid=$(pid_on_port "$name" "$port") || return 1
  fi
  if [ "$name" = mariadb ] && [ -S "$RUN/mariadb.sock" ] && kill -0 "$pid" 2>/dev/null; then
    mariadb-admin --socket="$RUN/mariadb.sock" -u"$(id -un)" shutdown 2>/dev/null || true
  fi
  kill "$pid" 2>/dev/null || true
  for ((i = 0; i < limit * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    [ "$i" = 10 ] && printf '%s (pid %s) is still shutting down; waiting until it exits (at most %s s)\n' "$name" "$pid" "$limit" >&2
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    printf '%s (pid %s) did not exit within %s s: kill -9\n' "$name" "$pid" "$limit" >&2
    kill -9 "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  elif [ "$i" -gt 10 ]; then
    printf '%s (pid %s) exited after %s s\n' "$name" "$pid" "$((SECONDS - began))" >&2
  fi
  rm -f "$RUN/$name.pid"
}

port_of() {
  case $1 in
    mariadb) echo "$PERFLAB_DB_PORT" ;; redis) echo "$PERFLAB_REDIS_PORT" ;; wiremock) echo "$PERFLAB_WIREMOCK_PORT" ;;
    toxiproxy) echo "$PERFLAB_TOXIPROXY_PORT" ;; prometheus) echo "$PERFLAB_PROMETHEUS_PORT" ;; *) die "unknown service $1 (one of: ${SERVICES[*]})" ;;
  esac
}

status() {
  local name port state
  printf '%-11s %-6s %-5s %s\n' SERVICE PORT STATE "LOG"
  for name in "${SERVICES[@]}"; do
    port=$(port_of "$name")
    if port_open "$port"; then state=up; else state=down; fi
    printf '%-11s %-6s %-5s %s\n' "$name" "$port" "$state" "$LOG/$name.log"
  done
  if [ -x "$BIN/k6" ]; then printf '%-11s %-6s %-5s %s\n' k6 - ready "$BIN/k6"; else printf '%-11s %-6s %-5s\n' k6 - missing; fi
}

selected() { if [ $# -gt 0 ]; then printf '%s\n' "$@"; else printf '%s\n' "${SERVICES[@]}"; fi; }

cmd=${1:-status}; shift || true
case $cmd in
  install) install ;;
  install-lb) install_lb ;;
  up)
    install
    bash "$ROOT/stack/secrets.sh"  # the app's secrets, once per checkout: every app this stack serves reads them
    db_password
    for s in $(selected "$@"); do port_of "$s" >/dev/null; "up_$s"; done
    status ;;
  down)
    for s in $(selected "$@" | tac); do port_of "$s" >/dev/null; stop_service "$s"; done
    status ;;
  status) status ;;
  bin) echo "$BIN" ;;
  prometheus-targets) prometheus_targets "$@" ;;
  *) die "usage: stack/native.sh up|down|status|install|install-lb [service...] | prometheus-targets [NAME=PORT ...]" ;;
esac
