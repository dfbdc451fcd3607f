#!/usr/bin/env bash
# Runs the integration tests against a real kube-apiserver and etcd.
# The binaries are built once by controlplane/build.sh and cached outside the
# clone; KUBECLIENT_CONTROLPLANE_DIR may point at prebuilt ones instead.
# Extra arguments go to `go test` (for example -run TestWatch -v).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ -z "${KUBECLIENT_CONTROLPLANE_DIR:-}" ]; then
  start=$(date +%s)
  KUBECLIENT_CONTROLPLANE_DIR=$("$here/controlplane/build.sh")
  echo "control plane binaries: $KUBECLIENT_CONTROLPLANE_DIR ($(( $(date +%s) - start ))s)" >&2
fi
export KUBECLIENT_CONTROLPLANE_DIR

cd "$here"
go vet ./...
go test -race -count=1 -timeout 15m "$@" ./...
