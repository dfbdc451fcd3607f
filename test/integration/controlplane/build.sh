#!/usr/bin/env bash
# Builds the real kube-apiserver, kube-controller-manager and etcd binaries once per version and caches
# them outside the clone. Prints the folder that holds them.
#   KUBECLIENT_CACHE  cache root (default ~/.cache/kubeclient)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
k8s=$(sed -n 's/^\s*k8s.io\/kubernetes \(v[^ ]*\).*/\1/p' "$here/go.mod" | head -1)
etcd=$(sed -n 's/^\s*go.etcd.io\/etcd\/server\/v3 \(v[^ ]*\).*/\1/p' "$here/go.mod" | head -1)
# The binaries report the release they were built from, as an official build
# does (kube-apiserver's /version, etcd's --version); the stamp is part of the
# cache key so a change to it rebuilds.
major=${k8s#v}; major=${major%%.*}
minor=${k8s#v}; minor=${minor#*.}; minor=${minor%%.*}
stamp=v2
ldflags="-s"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$k8s -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done
key="kube-apiserver-${k8s}_etcd-${etcd}_$(go env GOOS)-$(go env GOARCH)_stamp-${stamp}"
out="${KUBECLIENT_CACHE:-$HOME/.cache/kubeclient}/controlplane/$key"
mkdir -p "$out"
cd "$here"
for bin in etcd kube-apiserver kube-controller-manager; do
  if [ ! -x "$out/$bin" ]; then
    echo "building $bin ($key), cached in $out" >&2
    GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags="$ldflags" -o "$out/$bin.tmp" "./cmd/$bin"
    mv "$out/$bin.tmp" "$out/$bin"
  fi
done
echo "$out"
