#!/usr/bin/env bash
# Runs the controller-runtime differential tests: controller-runtime
# v0.25.3 over the drop-in (cmd/dropin, written to ./_dropin, which go.mod
# replaces k8s.io/client-go with). Extra arguments go to `go test`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
echo "test/controllerruntime: writing the drop-in to $here/_dropin" >&2
(cd "$root" && go run ./cmd/dropin -o "$here/_dropin" >/dev/null)
cd "$here"
echo "test/controllerruntime: go test (controller-runtime on the drop-in)" >&2
go test -race -count=1 "$@" ./...
