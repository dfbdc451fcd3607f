#!/usr/bin/env bash
# Regenerates the example CRD client of examples/crd with the project's code
# generator: deepcopy functions and JSON decoders (zz_generated.decoders.go,
# registered with pkg/decoders) next to the API types (apis/stable/v1) and
# the clientset, fake clientset, listers, informers and apply configurations
# under generated/, speaking JSON, in k8s.io/code-generator's layout
# (generated/clientset/versioned, generated/informers/externalversions,
# generated/listers/stable/v1, generated/applyconfiguration).
# Usage: examples/crd/hack/update-codegen.sh [output-dir]
#   output-dir stands for examples/crd/generated (default); the deepcopy and
#   decoders files are written to output-dir/../apis/stable/v1.
set -euo pipefail
crd="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$crd/../.." && pwd)"
out="${1:-$crd/generated}"
cd "$root"
go run ./cmd/codegen \
  -go-list-dir "$root" \
  -output-dir "$out" \
  -module github.com/kubeclient/client-go/examples/crd/generated \
  -runtime github.com/kubeclient/client-go \
  -inputs github.com/kubeclient/client-go/examples/crd/apis/stable/v1 \
  -prefer-protobuf=false \
  -deepcopy \
  -decoders \
  -clean
