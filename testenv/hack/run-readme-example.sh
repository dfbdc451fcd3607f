#!/usr/bin/env bash
# Runs the example test of testenv/README.md in a fresh module that uses
# testenv and the library through replace directives to this checkout, as a
# user's module would after `go get`. The binaries come from the usual cache
# (built on first use).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The Go block that follows the "example:" marker.
awk '/<!-- example: /{found=1; next} found && /^```go$/{inside=1; next} inside && /^```$/{exit} inside{print}' \
  "$root/testenv/README.md" > "$work/example_test.go"
if ! grep -q '^package ' "$work/example_test.go"; then
  echo "run-readme-example: no example found in testenv/README.md" >&2
  exit 1
fi
cat > "$work/go.mod" <<MOD
module example.com/mycontroller

go 1.26.0

require (
	github.com/kubeclient/client-go v0.0.0
	github.com/kubeclient/client-go/testenv v0.0.0
)

replace (
	github.com/kubeclient/client-go => $root
	github.com/kubeclient/client-go/testenv => $root/testenv
)
MOD
cd "$work"
GOFLAGS=-mod=mod GOWORK=off go mod tidy
GOWORK=off go vet ./...
start=$(date +%s)
GOWORK=off go test -count=1 -v ./... 2>&1 | tail -n 20
echo "run-readme-example: passed in $(( $(date +%s) - start ))s"
