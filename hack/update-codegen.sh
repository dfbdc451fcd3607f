#!/usr/bin/env bash
# Regenerates the typed clients, clientset, scheme and apply configurations
# of k8s.io/api in place. Hand-written files (no generated header) are kept.
# Usage: hack/update-codegen.sh [output-dir]   (default: the module root)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root}"
cd "$root"
go run ./cmd/codegen \
  -go-list-dir "$root" \
  -output-dir "$out" \
  -module github.com/kubeclient/client-go \
  -layout client-go \
  -inputs-file cmd/codegen/kubernetes-inputs.txt \
  -apply-only-inputs k8s.io/api/imagepolicy/v1alpha1,k8s.io/apimachinery/pkg/apis/meta/v1 \
  -jsondecode "$(grep -v '^#' cmd/codegen/jsondecode-roots.txt | paste -sd, -)" \
  -protodecode "$(grep -v '^#' cmd/codegen/jsondecode-roots.txt | paste -sd, -)" \
  -clean
