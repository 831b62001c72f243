#!/bin/sh
# As the real wiremock image's entrypoint: no arguments or options alone run WireMock with them.
set -e
if [ $# -eq 0 ] || [ "${1#-}" != "$1" ]; then
  # shellcheck disable=SC2086 # JAVA_OPTS: several options
  set -- java $JAVA_OPTS -cp '/var/wiremock/lib/*:/var/wiremock/extensions/*' wiremock.Run "$@"
fi
# shellcheck disable=SC2086
exec "$@" $WIREMOCK_OPTIONS
