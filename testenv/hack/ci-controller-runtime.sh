#!/usr/bin/env bash
# CI for the controller-runtime recipe (testenv/examples/controller-runtime,
# docs/testenv.md): a controller-runtime manager on testenv with
# kube-controller-manager, and envtest on testenv's binaries through
# KUBEBUILDER_ASSETS. The binaries come from the usual cache, which the
# integration suite has filled by then (built on first use otherwise).
set -euo pipefail
cd "$(dirname "$0")/../examples/controller-runtime"
export GOWORK=off
start=$SECONDS
go vet ./...
go test -race -count=1 ./...
echo "controller-runtime recipe: passed in $((SECONDS - start))s" >&2
