#!/usr/bin/env bash
# Runs the demo controller against a local control plane, in four phases,
# each announced before it starts:
#   1. build etcd, kube-apiserver and kube-controller-manager (the first run
#      only: from the Go module proxy, with testenv's progress lines; later
#      runs take them from the cache);
#   2. compile local-up (test/integration/cmd/local-up) and the demo
#      controller (examples/demo-controller);
#   3. start the control plane in the background and wait until it is ready;
#   4. run the demo against its kubeconfig, then stop the control plane,
#      whether the demo passed or failed.
#   DEMO_ARGS   extra flags for the demo (e.g. "-duration 5m")
#   DEMO_READY_TIMEOUT  seconds to wait for the control plane (default 300)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
progress_prefix="demo.sh: "
# shellcheck source=hack/lib/progress.sh
. "$root/hack/lib/progress.sh"

out="$root/_output"
dir="$out/local-up"
log="$out/local-up.log"
rm -rf "$dir"
mkdir -p "$out/bin"
started=$SECONDS

echo "demo.sh: [1/4] control-plane programs: etcd, kube-apiserver, kube-controller-manager" >&2
echo "demo.sh:       (built once from the Go module proxy and cached; a cold build takes 20-40 CPU-minutes)" >&2
if [ -z "${KUBECLIENT_CONTROLPLANE_DIR:-}" ]; then
  KUBECLIENT_CONTROLPLANE_DIR=$("$root/test/integration/controlplane/build.sh")
fi
export KUBECLIENT_CONTROLPLANE_DIR
echo "demo.sh:       programs in $KUBECLIENT_CONTROLPLANE_DIR" >&2

echo "demo.sh: [2/4] compiling local-up and the demo controller (go build; a few minutes on a cold build cache)" >&2
progress_run "compiling local-up" "$out/build-local-up.log" \
  bash -c 'cd "$1/test/integration" && go build -o "$2" ./cmd/local-up' _ "$root" "$out/bin/local-up"
progress_run "compiling the demo controller" "$out/build-demo.log" \
  go build -o "$out/bin/demo-controller" ./examples/demo-controller

echo "demo.sh: [3/4] starting etcd, kube-apiserver and kube-controller-manager (log: $log)" >&2
# A new session makes local-up and everything it starts one process group,
# so the trap can stop all of it.
setsid "$out/bin/local-up" -dir "$dir" >"$log" 2>&1 &
upid=$!
stop() {
  # The output may be gone (make demo | head): stopping goes on regardless.
  trap '' PIPE
  if kill -0 "$upid" 2>/dev/null; then
    echo "demo.sh: stopping the control plane" >&2 || true
    kill -TERM -- "-$upid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$upid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$upid" 2>/dev/null || true
  fi
}
trap stop EXIT
trap 'exit 130' INT TERM HUP PIPE

wait_start=$SECONDS
last=$SECONDS
deadline=$((SECONDS + ${DEMO_READY_TIMEOUT:-300}))
until grep -q "control plane ready" "$log" 2>/dev/null; do
  if ! kill -0 "$upid" 2>/dev/null; then
    echo "demo.sh: local-up exited before the control plane was ready (log: $log):" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "demo.sh: control plane not ready after ${DEMO_READY_TIMEOUT:-300}s (log: $log)" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  if [ $((SECONDS - last)) -ge 10 ]; then
    echo "demo.sh:       waiting for the control plane: $((SECONDS - wait_start))s" >&2
    last=$SECONDS
  fi
  sleep 1
done
kubeconfig=$(sed -n 's/^ *kubeconfig: *\([^ ]*\).*/\1/p' "$log" | head -1)
echo "demo.sh:       control plane ready in $((SECONDS - wait_start))s, kubeconfig $kubeconfig" >&2

echo "demo.sh: [4/4] running the demo controller (examples/demo-controller; setup took $(progress_fmt $((SECONDS - started))))" >&2
# shellcheck disable=SC2086 # DEMO_ARGS is a list of flags
"$out/bin/demo-controller" -kubeconfig "$kubeconfig" ${DEMO_ARGS:-}
