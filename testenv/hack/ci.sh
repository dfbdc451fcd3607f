#!/usr/bin/env bash
# CI for the testenv module: vet and unit tests (no control plane needed),
# then the README example in a fresh module against real servers.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
start=$(date +%s)
go vet ./...
go test -race -count=1 ./...
echo "testenv: unit tests in $(( $(date +%s) - start ))s" >&2
hack/run-readme-example.sh
