#!/usr/bin/env bash
# Stand-in images for docker-compose.yml and the Dockerfile, built here from Debian packages, the Go module
# proxy and Maven Central, and tagged with the exact names those files use (Docker Hub and ghcr are out of
# reach). Containers in the engine's namespace have no way out and a build's `RUN apt-get` cannot reach the
# mirror, so every Debian package goes in when the shared base is bootstrapped (debootstrap --include, with the
# mirror apt uses on this machine), and each stand-in is a small Dockerfile FROM that base
# (stack/docker/standins/<name>/). A stand-in is rebuilt only when its inputs change: the label
# perflab.standin.inputs holds a hash of its Dockerfile directory, its parent image and its extra inputs.
# grafana/grafana has no Debian package: no stand-in, compose-ci.sh leaves the service out.
# Needs the engine up (stack/docker/engine.sh up) and the native stack's tools (stack/native.sh install:
# k6, toxiproxy-server, the WireMock jar). Usage: stack/docker/standins.sh [build|list|base-tar]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SUITE=bookworm
# one fat base for every stand-in: the servers, their clients, the healthchecks' tools, the seed's python3 and the
# runner's venv
BASE_PACKAGES=(bash ca-certificates curl wget procps python3 python3-venv mariadb-server mariadb-client redis-server
  redis-tools prometheus)
JDK=${PERFLAB_STANDIN_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
NATIVE_BIN=$("$ROOT/stack/native.sh" bin)
NATIVE_LIB=$(dirname "$NATIVE_BIN")/lib
# the WireMock version the native stack downloads (.env, as there: the environment wins)
PERFLAB_WIREMOCK_VERSION=${PERFLAB_WIREMOCK_VERSION:-$(sed -n 's/^PERFLAB_WIREMOCK_VERSION=//p' "$ROOT/.env")}

hash_of() { sha256sum | cut -c1-16; }

# mirror: the Debian mirror this machine's apt uses for $SUITE main (deb822 .sources or one-line .list files);
# it is read at run time, so no host name is written into the repository
mirror() {
  python3 - "$SUITE" <<'PY'
import glob, re, sys
suite = sys.argv[1]
files = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")) \
    + sorted(glob.glob("/etc/apt/sources.list.d/*.sources"))
for path in files:
    try:
        text = open(path).read()
    except OSError:
        continue
    if path.endswith(".sources"):
        for stanza in re.split(r"\n\s*\n", text):
            fields = dict((k.strip().lower(), v.strip()) for k, _, v in
                          (line.partition(":") for line in stanza.splitlines() if line and not line.startswith("#")))
            if "deb" in fields.get("types", "").split() and suite in fields.get("suites", "").split() \
                    and "main" in fields.get("components", "").split() and fields.get("enabled", "yes") != "no":
                print(fields["uris"].split()[0]); sys.exit(0)
    else:
        for line in text.splitlines():
            words = re.sub(r"\[[^]]*\]", "", line.split("#")[0]).split()
            if len(words) >= 4 and words[0] == "deb" and words[2] == suite and "main" in words[3:]:
                print(words[1]); sys.exit(0)
sys.exit("no deb source for %s main in /etc/apt/sources.list{,.d}" % suite)
PY
}

# base_tar: the bootstrapped root file system as a tarball, cached by suite and package list; prints its path
base_tar() {
  local key tar dir
  key=$(printf '%s\n' "$SUITE" "${BASE_PACKAGES[@]}" | hash_of)
  tar=$CACHE/rootfs/$SUITE-$key.tar
  if [ ! -s "$tar" ]; then
    apt_ensure debootstrap >&2
    local from; from=$(mirror)
    say "base: debootstrap --variant=minbase $SUITE with ${BASE_PACKAGES[*]} (a few minutes, once)" >&2
    mkdir -p "$CACHE/rootfs"
    dir=$(mktemp -d "$CACHE/rootfs/build.XXXXXX")
    if ! debootstrap --variant=minbase --include="$(IFS=,; echo "${BASE_PACKAGES[*]}")" "$SUITE" "$dir" "$from" \
        >"$CACHE/rootfs/debootstrap.log" 2>&1; then
      tail -n 20 "$CACHE/rootfs/debootstrap.log" >&2
      [ -f "$dir/debootstrap/debootstrap.log" ] && tail -n 20 "$dir/debootstrap/debootstrap.log" >&2
      rm -rf "$dir"; die "debootstrap failed (log: $CACHE/rootfs/debootstrap.log)"
    fi
    # no package cache, no package lists (nothing in a container can reach the mirror anyway), no host identity
    rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/debootstrap
    : >"$dir/etc/hostname"; rm -f "$dir/etc/resolv.conf"
    tar --numeric-owner -C "$dir" -cf "$tar.part" .
    mv "$tar.part" "$tar"
    rm -rf "$dir"
  fi
  echo "$tar"
}

# maven_repo: a Maven repository with what the project's Dockerfile build stage resolves (dependency:go-offline,
# then package), and the wrapper's Maven distribution beside it, laid out as a ~/.m2 with a settings.xml that
# says <offline>true</offline>. Made once per pom.xml and wrapper on the host (which reaches Maven Central), in a
# throwaway copy of the project; prints its path.
maven_repo() {
  local key m2 work
  key=$(cd "$ROOT" && cat pom.xml mvnw .mvn/wrapper/maven-wrapper.properties .mvn/jvm.config | hash_of)
  m2=$CACHE/m2-$key
  if [ ! -s "$m2/settings.xml" ]; then
    say "jdk: a Maven repository for the offline image build (go-offline and package on the host, once per pom.xml)" >&2
    rm -rf "$m2"; mkdir -p "$m2"
    work=$(mktemp -d "$CACHE/maven-build.XXXXXX")
    (cd "$ROOT" && cp -a pom.xml mvnw .mvn src "$work/")
    if ! (cd "$work" && export MAVEN_USER_HOME=$m2 JAVA_HOME=$JDK PATH=$JDK/bin:$PATH &&
          ./mvnw -B -q -Dmaven.repo.local="$m2/repository" dependency:go-offline &&
          ./mvnw -B -q -Dmaven.repo.local="$m2/repository" -DskipTests package) >"$CACHE/maven-build.log" 2>&1; then
      tail -n 30 "$CACHE/maven-build.log" >&2; rm -rf "$work"
      die "the Maven repository for the JDK stand-in could not be made (log: $CACHE/maven-build.log)"
    fi
    rm -rf "$work"
    cat >"$m2/settings.xml.part" <<'XML'
<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0">
  <!-- perflab's eclipse-temurin:25-jdk stand-in: everything the build needs is in /root/.m2/repository -->
  <offline>true</offline>
</settings>
XML
    mv "$m2/settings.xml.part" "$m2/settings.xml"
  fi
  echo "$m2"
}

# base_image: the bootstrapped root file system imported into the engine; prints its tag
base_image() {
  local tar tag
  tar=$(base_tar)
  tag=perflab/standin-base:$(basename "$tar" .tar)
  if ! dk image inspect "$tag" >/dev/null 2>&1; then
    say "base: docker import $(du -h "$tar" | cut -f1) as $tag" >&2
    dk import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'CMD ["bash"]' "$tar" "$tag" >/dev/null
  fi
  echo "$tag"
}

# fingerprint PATH: a file's sha256; a directory's file names, sizes and modification times
fingerprint() {
  if [ -d "$1" ]; then (cd "$1" && find . -type f -printf '%P %s %T@\n' | sort); else sha256sum <"$1"; fi
}

# standin TAG DIR PARENT [NAME=PATH ...]: build stack/docker/standins/DIR FROM PARENT (build argument BASE) as
# TAG, with each PATH put into the build context as NAME, unless TAG's label already holds these inputs' hash
standin() {
  local tag=$1 name=$2 dir=$DOCKER_DIR/standins/$2 parent=$3 inputs have ctx spec began=$SECONDS
  shift 3
  inputs=$({ dk image inspect -f '{{.Id}}' "$parent"
             (cd "$dir" && find . -type f | sort | xargs sha256sum)
             for spec in "$@"; do echo "${spec%%=*}"; fingerprint "${spec#*=}"; done; } | hash_of)
  have=$(dk image inspect -f '{{index .Config.Labels "perflab.standin.inputs"}}' "$tag" 2>/dev/null || true)
  if [ "$have" = "$inputs" ]; then say "stand-in $tag: up to date"; return 0; fi
  ctx=$(mktemp -d "$CACHE/context.XXXXXX")
  cp -a "$dir/." "$ctx/"
  for spec in "$@"; do  # hard links where the cache and the input share a file system: no copy of the JDK
    cp -al "${spec#*=}" "$ctx/${spec%%=*}" 2>/dev/null || cp -a "${spec#*=}" "$ctx/${spec%%=*}"
  done
  # the classic builder: these Dockerfiles have one stage, and the CLI's BuildKit path wants buildx
  if ! DOCKER_BUILDKIT=0 dk build --build-arg BASE="$parent" --label "perflab.standin.inputs=$inputs" -t "$tag" "$ctx" \
      >"$CACHE/log/standin-$name.log" 2>&1; then
    tail -n 20 "$CACHE/log/standin-$name.log" >&2; rm -rf "$ctx"
    die "stand-in $tag did not build (log: $CACHE/log/standin-$name.log)"
  fi
  rm -rf "$ctx"
  say "stand-in $tag: built in $((SECONDS - began)) s"
}

build() {
  local base jre=eclipse-temurin:25-jre
  mkdir -p "$CACHE/log"
  [ -x "$NATIVE_BIN/k6" ] && [ -x "$NATIVE_BIN/toxiproxy-server" ] && [ -s "$NATIVE_LIB/wiremock-standalone-$PERFLAB_WIREMOCK_VERSION.jar" ] \
    || die "k6, toxiproxy-server or the WireMock jar is missing in $NATIVE_BIN, $NATIVE_LIB: run stack/native.sh install"
  base=$(base_image)
  standin "$jre" temurin-jre "$base" "jdk=$JDK"
  standin eclipse-temurin:25-jdk temurin-jdk "$jre" "m2=$(maven_repo)"
  standin wiremock/wiremock:3.13.2 wiremock "$jre" \
    "wiremock-standalone.jar=$NATIVE_LIB/wiremock-standalone-$PERFLAB_WIREMOCK_VERSION.jar"
  standin redis:7-alpine redis "$base"
  standin mariadb:11.4 mariadb "$base"
  standin curlimages/curl:8.11.1 curl "$base"
  standin prom/prometheus:v3.5.0 prometheus "$base"
  standin ghcr.io/shopify/toxiproxy:2.12.0 toxiproxy "$base" "toxiproxy=$(readlink -f "$NATIVE_BIN/toxiproxy-server")"
  standin grafana/k6:1.8.1 k6 "$base" "k6=$(readlink -f "$NATIVE_BIN/k6")"
  standin docker:27-cli docker-cli "$base" "docker=$(readlink -f "$(command -v docker)")"
}

list() {
  dk image ls --filter label=perflab.standin.inputs --format '{{.Repository}}:{{.Tag}}\t{{.Size}}\t{{.CreatedSince}}'
}

case ${1:-build} in
  build) build ;;
  list) list ;;
  maven-repo) maven_repo ;;
  base-tar) base_tar ;;
  *) die "usage: stack/docker/standins.sh [build|list|base-tar]" ;;
esac
