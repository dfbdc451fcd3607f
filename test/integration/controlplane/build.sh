#!/usr/bin/env bash
# Builds the real etcd, kube-apiserver and kube-controller-manager once per
# version and caches them outside the clone; prints the folder that holds
# them. The build itself is testenv's (testenv/binaries: the Go module it
# embeds is written to a temporary folder and built from the module proxy),
# so the suite and testenv's users share one cache.
#   KUBECLIENT_CACHE  cache root (default ~/.cache/kubeclient)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root/testenv"
exec go run ./cmd/testenv-binaries
