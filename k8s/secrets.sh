#!/usr/bin/env bash
# The user's Secrets of k8s/ for one install, made as the native stack makes its own (stack/secrets.sh) into
# .perflab/k8s (700, kept: run it again and nothing changes), then created in the cluster:
#   perflab-secrets  the app's config tree: JWT and hash secrets, Redis' password, the stub's certificate, the admin id,
#                    and what the stub accepts (member-password, admin-login, admin-password, the warm-up account's
#                    password) with the seeded PIN (member-pin); the stub's init container reads four of its keys
#   wiremock-tls     the stub's key pair (auth-api.p12, SAN wiremock) and its password
# Usage: k8s/secrets.sh [namespace]   (default perflab; kubectl must reach the cluster). PERFLAB_K8S_SECRETS_DIR moves
# the folder. A k6 run against the cluster logs in with the files there (-e PERFLAB_SECRETS_DIR=<folder>/secrets).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NAMESPACE=${1:-perflab}
DIR=${PERFLAB_K8S_SECRETS_DIR:-$ROOT/.perflab/k8s}
umask 077
mkdir -p "$DIR"
PERFLAB_SECRETS_DIR=$DIR/secrets PERFLAB_STUB_TLS_DIR=$DIR/stub-tls bash "$ROOT/stack/secrets.sh"
redis=$DIR/secrets/spring.data.redis.password
[ -s "$redis" ] || { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$redis.new"; mv "$redis.new" "$redis"; }
command -v kubectl >/dev/null || { echo "k8s/secrets.sh: the files are in $DIR; kubectl is needed to create the Secrets" >&2; exit 1; }
kubectl get namespace "$NAMESPACE" >/dev/null 2>&1 || kubectl create namespace "$NAMESPACE"
kubectl -n "$NAMESPACE" create secret generic perflab-secrets --from-file="$DIR/secrets" \
  --dry-run=client -o yaml | kubectl apply -f -
kubectl -n "$NAMESPACE" create secret generic wiremock-tls --from-file=auth-api.p12="$DIR/stub-tls/auth-api.p12" \
  --from-file=password="$DIR/stub-tls/auth-api.password" --dry-run=client -o yaml | kubectl apply -f -
