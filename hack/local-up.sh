#!/usr/bin/env bash
# Starts a real etcd, kube-apiserver and kube-controller-manager (testenv) on
# loopback ports, prints the admin kubeconfig path and keeps them running
# until Ctrl-C. The binaries are built once and cached (see
# test/integration/controlplane/build.sh). Arguments go to the local-up
# command (e.g. -dir /tmp/cluster to keep state, -no-controller-manager).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${KUBECLIENT_CONTROLPLANE_DIR:-}" ]; then
  KUBECLIENT_CONTROLPLANE_DIR=$("$root/test/integration/controlplane/build.sh")
fi
export KUBECLIENT_CONTROLPLANE_DIR
cd "$root/test/integration"
bin=$(mktemp -d)/local-up
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/local-up
"$bin" "$@"
