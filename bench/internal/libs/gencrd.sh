#!/bin/sh
# Writes clientgo/crd: the clientset, listers and informers of examples/crd's
# API types (stable.example.com/v1) generated for k8s.io/client-go, the
# client-go side of the crd workload. They come from cmd/codegen with
# -runtime k8s.io/client-go, which writes what k8s.io/code-generator
# writes for client-go (gentype-based typed clients, listers, informers);
# the kubeclient side is examples/crd/generated, made by the same
# generator from the same types. The fake clientsets are left out (they
# use kubeclient's server-like tracker, which client-go lacks; the
# benchmark needs no fake).
set -eu
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="$root/bench/internal/libs/clientgo/crd"
cd "$root"
go run ./cmd/codegen \
  -go-list-dir "$root" \
  -output-dir "$out" \
  -module github.com/kubeclient/client-go/bench/internal/libs/clientgo/crd \
  -runtime k8s.io/client-go \
  -inputs github.com/kubeclient/client-go/examples/crd/apis/stable/v1 \
  -prefer-protobuf=false \
  -clean
find "$out" -type d -name fake -prune -exec rm -rf {} +
