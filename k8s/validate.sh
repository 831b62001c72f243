#!/usr/bin/env bash
# Offline validation of the Kubernetes manifests (CI): renders every overlay, example and the k6 load with
# kustomize and validates the rendered output (validate.py: Kubernetes schemas, the vendored CRDs, references,
# and the repository files the ConfigMaps carry), then proves with pytest that broken manifests fail.
# Idempotent: installs kustomize (go install, pinned) into the stack's bin directory and the pinned Python tools
# into .perflab/venv-k8s on the first run only. Usage: k8s/validate.sh [kustomization dir ...]
set -euo pipefail
shopt -s inherit_errexit # a failed install inside $(...) stops the script
cd "$(dirname "$0")/.."

KUSTOMIZE_VERSION=v5.8.1 # v5.8.2+ needs Go 1.27; Debian and the stack build with 1.26
KUBERNETES_VERSION=${PERFLAB_K8S_VERSION:-1.33}
VENV=.perflab/venv-k8s

die() { printf 'k8s/validate: %s\n' "$*" >&2; exit 1; }

install_kustomize() { # go install into $BIN/kustomize-VERSION, the layout stack/native.sh uses for k6 and Toxiproxy
  local bin dir
  bin=$(bash stack/native.sh bin) || die "stack/native.sh bin did not answer"
  dir=$bin/kustomize-$KUSTOMIZE_VERSION
  if [ ! -x "$dir/kustomize" ]; then
    command -v go >/dev/null || die "Go is needed to build kustomize $KUSTOMIZE_VERSION (apt-get install golang-go)"
    echo "building kustomize $KUSTOMIZE_VERSION with go install (minutes on 2 cores, once)" >&2
    mkdir -p "$dir"
    GOBIN=$dir GOFLAGS=-mod=mod go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION" >&2
  fi
  ln -sfn "$dir/kustomize" "$bin/kustomize"
  echo "$dir/kustomize"
}

install_venv() { # the pinned requirements; reinstalled when k8s/requirements.txt changes
  local stamp=$VENV/.requirements.sha256 want
  want=$(sha256sum k8s/requirements.txt | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "installing k8s/requirements.txt into $VENV" >&2
    python3 -m venv "$VENV" || die "python3 -m venv failed (apt-get install python3-venv)"
    "$VENV/bin/pip" install -q --disable-pip-version-check -r k8s/requirements.txt >&2
    echo "$want" > "$stamp"
  fi
}

KUSTOMIZE=$(install_kustomize)
install_venv
export KUSTOMIZE

echo "== kustomize build + validate (kustomize $KUSTOMIZE_VERSION, Kubernetes $KUBERNETES_VERSION schemas)"
"$VENV/bin/python" k8s/validate.py --kustomize "$KUSTOMIZE" --kubernetes-version "$KUBERNETES_VERSION" "$@"

echo "== the validator fails on broken manifests"
"$VENV/bin/python" -m pytest -q -p no:cacheprovider k8s/test_validate.py \
  --deselect k8s/test_validate.py::test_every_overlay_example_and_the_load_pass   # validate.py has just done that
