#!/usr/bin/env bash
# Regenerates openapi/openapitest/testdata: the OpenAPI v3 documents that
# openapitest.NewEmbeddedFileClient serves, fetched from the real
# kube-apiserver of the integration control plane (built once and cached, see
# test/integration/controlplane/build.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${KUBECLIENT_CONTROLPLANE_DIR:-}" ]; then
  KUBECLIENT_CONTROLPLANE_DIR=$("$root/test/integration/controlplane/build.sh")
fi
export KUBECLIENT_CONTROLPLANE_DIR
out="$root/openapi/openapitest/testdata"
rm -f "$out"/*_openapi.json
cd "$root/test/integration"
go run ./cmd/openapi-testdata -out "$out"
ls -l "$out"
