#!/usr/bin/env bash
# Builds the real etcd, kube-apiserver and kube-controller-manager once per
# version and caches them outside the clone; prints the folder that holds
# them. The build itself is testenv's (testenv/binaries: the Go module it
# embeds is written to a temporary folder and built from the module proxy),
# so the suite and testenv's users share one cache. Its progress (each step
# with counts, elapsed time and an estimate from the last build, then a
# summary) goes to stderr; the folder alone to stdout.
#   KUBECLIENT_CACHE  cache root (default ~/.cache/kubeclient)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root/testenv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Compiling the builder itself takes seconds; its errors are shown.
if ! go build -o "$tmp/testenv-binaries" ./cmd/testenv-binaries 2>"$tmp/build.log"; then
  echo "controlplane/build.sh: compiling testenv-binaries failed:" >&2
  cat "$tmp/build.log" >&2
  exit 1
fi
"$tmp/testenv-binaries"
