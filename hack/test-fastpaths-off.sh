#!/usr/bin/env bash
# Runs the library's unit and informer tests once more with every fast path
# switched off (README: "Fast paths and their switches"), so that each
# switch keeps a working, client-go-like path. Part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
KUBECLIENT_FAST_PATHS=false go test -count=1 -timeout 30m ./...
