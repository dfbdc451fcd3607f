#!/usr/bin/env bash
# Starts a real etcd, kube-apiserver and kube-controller-manager (testenv) on
# loopback ports, prints the admin kubeconfig path and keeps them running
# until Ctrl-C. The programs are built once and cached (see
# test/integration/controlplane/build.sh, which reports its progress);
# local-up itself is compiled next, with a progress line. Arguments go to the
# local-up command (e.g. -dir /tmp/cluster to keep state,
# -no-controller-manager).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
progress_prefix="local-up.sh: "
# shellcheck source=hack/lib/progress.sh
. "$root/hack/lib/progress.sh"
if [ -z "${KUBECLIENT_CONTROLPLANE_DIR:-}" ]; then
  echo "local-up.sh: control-plane programs (built once from the Go module proxy and cached)" >&2
  KUBECLIENT_CONTROLPLANE_DIR=$("$root/test/integration/controlplane/build.sh")
fi
export KUBECLIENT_CONTROLPLANE_DIR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin="$tmp/local-up"
progress_run "compiling local-up" "$tmp/build.log" \
  bash -c 'cd "$1/test/integration" && go build -o "$2" ./cmd/local-up' _ "$root" "$bin"
echo "local-up.sh: starting the control plane" >&2
"$bin" "$@"
