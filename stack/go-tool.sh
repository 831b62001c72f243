# Sourced by stack/compose-check.sh and stack/dashboard-check.sh. go_tool NAME PIN builds the Go checker in
# stack/NAME once into the native stack's bin dir, keyed by a hash of its sources, and prints its path; PIN is the
# module that the build message quotes with its version from go.mod. The build's own lines go to stderr.
go_tool() {
  local name=$1 pin=$2 root src hash tool
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  src=$root/stack/$name
  hash=$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -c1-12) # main.go: the only non-test source
  tool=$("$root/stack/native.sh" bin)/$name-$hash/$name
  if [ ! -x "$tool" ]; then
    command -v go >/dev/null || { echo "perflab: Go is needed to build $name ($pin)" >&2; return 1; }
    echo "building $name ($(grep -o "$pin v[0-9.]*" "$src/go.mod")) with go build, once" >&2
    mkdir -p "$(dirname "$tool")"
    (cd "$src" && GOFLAGS=-mod=mod go build -o "$tool.part" . && mv "$tool.part" "$tool") >&2
  fi
  echo "$tool"
}
