#!/bin/sh
# Records the benchmark's templates from a real control plane into
# ../testdata. Needs the cached control-plane binaries (see testenv).
set -eu
cd "$(dirname "$0")"
exec go run . -out ../testdata "$@"
