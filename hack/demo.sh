#!/usr/bin/env bash
# Runs the demo controller against a local control plane: starts
# hack/local-up.sh in the background, waits until it reports ready, runs
# examples/demo-controller against its kubeconfig and stops the control plane
# on exit, whether the demo passed or failed.
#   DEMO_ARGS   extra flags for the demo (e.g. "-duration 5m")
#   DEMO_READY_TIMEOUT  seconds to wait for the control plane (default 1800,
#               since the first run builds kube-apiserver and etcd)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

dir="$root/_output/local-up"
log="$root/_output/local-up.log"
rm -rf "$dir"
mkdir -p "$root/_output"

# A new session makes local-up and everything it starts one process group,
# so the trap can stop all of it.
setsid hack/local-up.sh -dir "$dir" >"$log" 2>&1 &
upid=$!
stop() {
  if kill -0 "$upid" 2>/dev/null; then
    echo "demo.sh: stopping the control plane"
    kill -TERM -- "-$upid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$upid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$upid" 2>/dev/null || true
  fi
}
trap stop EXIT
trap 'exit 130' INT TERM

echo "demo.sh: starting the local control plane (log: $log)"
deadline=$((SECONDS + ${DEMO_READY_TIMEOUT:-1800}))
until grep -q "control plane ready" "$log" 2>/dev/null; do
  if ! kill -0 "$upid" 2>/dev/null; then
    echo "demo.sh: local-up exited before the control plane was ready:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "demo.sh: control plane not ready after ${DEMO_READY_TIMEOUT:-1800}s" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  sleep 1
done
kubeconfig=$(sed -n 's/^ *kubeconfig: *\([^ ]*\).*/\1/p' "$log" | head -1)
echo "demo.sh: control plane ready, kubeconfig $kubeconfig"

# shellcheck disable=SC2086 # DEMO_ARGS is a list of flags
go run ./examples/demo-controller -kubeconfig "$kubeconfig" ${DEMO_ARGS:-}
