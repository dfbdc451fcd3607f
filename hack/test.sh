#!/usr/bin/env bash
# Runs the library's unit tests with the race detector, then the code generation
# check when the generator is present. This is the README's test command and the
# core of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

go version
go vet ./...
go test -race -count=1 -timeout 30m ./...
if [ -x hack/verify-codegen.sh ]; then
  hack/verify-codegen.sh
fi
