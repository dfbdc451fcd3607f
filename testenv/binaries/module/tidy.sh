#!/usr/bin/env bash
# Tidies the embedded build module after a change to its go.mod.txt (a new
# Kubernetes or etcd version) or to a *.go.txt main package: writes it out as
# a real module in a temporary folder, runs `go mod tidy` there and copies
# go.mod and go.sum back. Bump `stamp` in ../build.go when the programs would
# be built differently at the same versions.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/go.mod.txt" "$tmp/go.mod"
cp "$here/go.sum.txt" "$tmp/go.sum"
for main in "$here"/*.go.txt; do
  name=$(basename "$main" .go.txt)
  mkdir -p "$tmp/cmd/$name"
  cp "$main" "$tmp/cmd/$name/main.go"
done
(cd "$tmp" && GOFLAGS=-mod=mod GOWORK=off go mod tidy)
cp "$tmp/go.mod" "$here/go.mod.txt"
cp "$tmp/go.sum" "$here/go.sum.txt"
