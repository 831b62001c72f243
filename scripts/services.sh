# Where the stack's services listen, and one readable line when one is down. Sourced by ./perflab, after .env is
# loaded: PERFLAB_*_PORT, PERFLAB_DB_HOST, PERFLAB_REDIS_HOST override (ab/seeding.py reads them the same way).

# service_address SERVICE: host:port of mariadb, redis, wiremock, toxiproxy, prometheus or app
service_address() {
  case $1 in
    mariadb) echo "${PERFLAB_DB_HOST:-127.0.0.1}:${PERFLAB_DB_PORT:-3306}" ;;
    redis) echo "${PERFLAB_REDIS_HOST:-127.0.0.1}:${PERFLAB_REDIS_PORT:-6379}" ;;
    wiremock) echo "127.0.0.1:${PERFLAB_WIREMOCK_PORT:-8089}" ;;
    toxiproxy) echo "127.0.0.1:${PERFLAB_TOXIPROXY_PORT:-8474}" ;;
    prometheus) echo "127.0.0.1:${PERFLAB_PROMETHEUS_PORT:-9090}" ;;
    app) echo "127.0.0.1:${PERFLAB_APP_PORT:-8080}" ;;
    *) echo "service_address: unknown service $1" >&2; return 2 ;;
  esac
}

service_label() {
  case $1 in
    mariadb) echo MariaDB ;; redis) echo Redis ;; wiremock) echo "WireMock (the auth API stub)" ;;
    toxiproxy) echo Toxiproxy ;; prometheus) echo Prometheus ;; app) echo "the app" ;; *) echo "$1" ;;
  esac
}

service_up() { # service_up SERVICE: its port accepts a TCP connection
  local address
  address=$(service_address "$1")
  (exec 3<>"/dev/tcp/${address%:*}/${address##*:}") 2>/dev/null
}

# require_services SERVICE...: exit with one line naming the first service that is down and how to start it
require_services() {
  local service how
  for service in "$@"; do
    service_up "$service" && continue
    case $service in
      app) how="./perflab app start (or ./perflab up)" ;;
      *) how="./perflab stack up $service" ;;
    esac
    printf 'perflab: %s is not running on %s: start it with %s\n' "$(service_label "$service")" \
      "$(service_address "$service")" "$how" >&2
    exit 1
  done
}

# load_env ROOT: .env gives defaults; a variable already set in the environment wins
# (PERFLAB_APP_PORT=8082 ./perflab app start)
load_env() {
  local key value
  while IFS='=' read -r key value; do
    if [[ $key =~ ^[A-Z_][A-Z0-9_]*$ ]] && [ -z "${!key+x}" ]; then export "$key=$value"; fi
  done <"$1/.env"
}
