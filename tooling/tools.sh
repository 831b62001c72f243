#!/usr/bin/env bash
# Tools the A/B report needs besides Python, installed idempotently:
#   converter  async-profiler's JFR converter (tools.profiler:jfr-converter from Maven Central, sha1-checked)
#              into the stack's lib dir; prints the jar's path. tooling/perflab/measure/flame.py calls this when the jar is missing.
#   chromium   headless Chromium (Debian package) for tooling/perflab/render/screenshot.py; prints the binary's path.
#   all        both.
# Usage: tooling/tools.sh converter|chromium|all   (or source it and call install_converter / install_chromium)
# Knobs: PERFLAB_JFR_CONVERTER_VERSION (default 4.5), PERFLAB_MAVEN_REPO (default Maven Central),
#        PERFLAB_STATE (default /var/lib/perflab as root, else ~/.local/state/perflab; same as stack/native.sh).
set -euo pipefail

PERFLAB_JFR_CONVERTER_VERSION=${PERFLAB_JFR_CONVERTER_VERSION:-4.5}
if [ "$(id -u)" = 0 ]; then _state_default=/var/lib/perflab; else _state_default=${XDG_STATE_HOME:-$HOME/.local/state}/perflab; fi
PERFLAB_TOOLS_LIB=${PERFLAB_STATE:-$_state_default}/lib
PERFLAB_MAVEN_REPO=${PERFLAB_MAVEN_REPO:-https://repo.maven.apache.org/maven2}

_tools_die() { printf 'perflab tools: %s\n' "$*" >&2; exit 1; }
_as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

converter_jar() { printf '%s/jfr-converter-%s.jar\n' "$PERFLAB_TOOLS_LIB" "$PERFLAB_JFR_CONVERTER_VERSION"; }

install_converter() {
  local jar url expected actual
  jar=$(converter_jar)
  if [ ! -s "$jar" ]; then
    command -v curl >/dev/null || _tools_die "curl is needed to download the JFR converter"
    mkdir -p "$PERFLAB_TOOLS_LIB"
    url=$PERFLAB_MAVEN_REPO/tools/profiler/jfr-converter/$PERFLAB_JFR_CONVERTER_VERSION/jfr-converter-$PERFLAB_JFR_CONVERTER_VERSION.jar
    printf 'downloading async-profiler JFR converter %s from Maven Central\n' "$PERFLAB_JFR_CONVERTER_VERSION" >&2
    curl -fsSL -o "$jar.part" "$url" || _tools_die "could not download $url"
    expected=$(curl -fsSL "$url.sha1" | cut -c1-40) || _tools_die "could not download $url.sha1"
    actual=$(sha1sum "$jar.part" | cut -c1-40)
    [ "$expected" = "$actual" ] || { rm -f "$jar.part"; _tools_die "checksum mismatch for $url ($actual, expected $expected)"; }
    mv "$jar.part" "$jar"
  fi
  printf '%s\n' "$jar"
}

chromium_bin() { command -v chromium || command -v chromium-browser || true; }

install_chromium() {
  if [ -z "$(chromium_bin)" ]; then
    printf 'installing chromium (apt-get, once)\n' >&2
    _as_root apt-get update -qq
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  fi
  [ -n "$(chromium_bin)" ] || _tools_die "chromium is not on PATH after apt-get install chromium"
  chromium_bin
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    converter) install_converter ;;
    chromium) install_chromium ;;
    all) install_converter; install_chromium ;;
    *) _tools_die "usage: $0 converter|chromium|all" ;;
  esac
fi
