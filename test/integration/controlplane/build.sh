#!/usr/bin/env bash
# Builds the real kube-apiserver and etcd binaries once per version and caches
# them outside the clone. Prints the folder that holds them.
#   KUBECLIENT_CACHE  cache root (default ~/.cache/kubeclient)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
k8s=$(sed -n 's/^\s*k8s.io\/kubernetes \(v[^ ]*\).*/\1/p' "$here/go.mod" | head -1)
etcd=$(sed -n 's/^\s*go.etcd.io\/etcd\/server\/v3 \(v[^ ]*\).*/\1/p' "$here/go.mod" | head -1)
key="kube-apiserver-${k8s}_etcd-${etcd}_$(go env GOOS)-$(go env GOARCH)"
out="${KUBECLIENT_CACHE:-$HOME/.cache/kubeclient}/controlplane/$key"
mkdir -p "$out"
cd "$here"
for bin in etcd kube-apiserver; do
  if [ ! -x "$out/$bin" ]; then
    echo "building $bin ($key), cached in $out" >&2
    GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags=-s -o "$out/$bin.tmp" "./cmd/$bin"
    mv "$out/$bin.tmp" "$out/$bin"
  fi
done
echo "$out"
