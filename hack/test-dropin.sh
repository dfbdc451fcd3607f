#!/usr/bin/env bash
# Ecosystem conformance of the drop-in (cmd/dropin): runs the unit tests of
# projects that import k8s.io/client-go twice, once as published (against
# client-go v0.37.2) and once with `replace k8s.io/client-go => <drop-in>`,
# and fails when a test that passes on client-go does not pass on the drop-in.
# Tests the environment cannot pass fail on both and are only counted.
#
# Usage: hack/test-dropin.sh [project ...]   (default: all three)
# The reference run uses client-go v0.37.2 (the release the drop-in stands in
# for), raised from the project's own requirement where that is lower.
#   projects: cli-runtime (k8s.io/cli-runtime v0.37.2), kubectl
#   (k8s.io/kubectl v0.37.2), controller-runtime (sigs.k8s.io/controller-runtime
#   v0.25.3, whose envtest runs our kube-apiserver and etcd).
# Environment:
#   DROPIN_FULL=1    every project's whole ./pkg/... (cli-runtime, kubectl,
#                    controller-runtime) instead of the CI subset
#   DROPIN_PKGS="PATTERNS"  these packages instead (e.g. ./pkg/cmd/wait/...),
#                    for the projects named on the command line
#   DROPIN_WORK=DIR  scratch directory (default: a new temporary one, removed
#                    at the end unless DROPIN_KEEP=1)
#   DROPIN_P=N       go test -p (default 1: the machine is shared)
#   KUBEBUILDER_ASSETS  kube-apiserver and etcd for controller-runtime's envtest
#                    in the full run (default: the folder
#                    test/integration/controlplane/build.sh prints, building the
#                    binaries once if needed)
# The project sources come from the Go module proxy (go mod download) and are
# copied to the scratch directory; nothing here touches the library's go.mod.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

full="${DROPIN_FULL:-0}"
par="${DROPIN_P:-1}"
if [ -n "${DROPIN_WORK:-}" ]; then
  work="$DROPIN_WORK"
  mkdir -p "$work"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/kubeclient-dropin.XXXXXX")"
  if [ "${DROPIN_KEEP:-0}" != 1 ]; then
    trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  fi
fi
export GOWORK=off
# The copies of the projects may need go.sum lines for the drop-in's graph.
copy_goflags="${GOFLAGS:+$GOFLAGS }-mod=mod"

# project table: name, module@version, CI packages, full packages.
declare -A module ci_pkgs full_pkgs
module[cli-runtime]=k8s.io/cli-runtime@v0.37.2
ci_pkgs[cli-runtime]="./pkg/..."
full_pkgs[cli-runtime]="./pkg/..."
module[kubectl]=k8s.io/kubectl@v0.37.2
ci_pkgs[kubectl]="./pkg/cmd/get/..."
full_pkgs[kubectl]="./pkg/..."
module[controller-runtime]=sigs.k8s.io/controller-runtime@v0.25.3
ci_pkgs[controller-runtime]="./pkg/client/fake/..."
full_pkgs[controller-runtime]="./pkg/..."

projects=("$@")
if [ "${#projects[@]}" -eq 0 ]; then
  projects=(cli-runtime kubectl controller-runtime)
fi
for p in "${projects[@]}"; do
  if [ -z "${module[$p]:-}" ]; then
    echo "unknown project $p (known: ${!module[*]})" >&2
    exit 2
  fi
done

log() { echo "test-dropin: $*" >&2; }
progress_prefix="test-dropin: "
# shellcheck source=hack/lib/progress.sh
. "$root/hack/lib/progress.sh"

dropin="$work/dropin"
log "writing the drop-in (cmd/dropin) to $dropin"
progress_run "compiling and running cmd/dropin" "$work/dropin.log" go run ./cmd/dropin -o "$dropin"

# run_tests DIR RESULTS PKGS...: runs the packages' tests in the module copy
# DIR, writing `go test -json` output and Ginkgo reports to RESULTS.
run_tests() {
  local dir="$1" results="$2"
  shift 2
  mkdir -p "$results"
  # Packages with tests, split into Ginkgo suites (which take the report
  # flag) and plain ones (which would reject it).
  local plain=() ginkgo=() pkg imports
  while read -r pkg imports; do
    case ",$imports," in
      *,github.com/onsi/ginkgo/v2,*) ginkgo+=("$pkg") ;;
      *) plain+=("$pkg") ;;
    esac
  done < <(cd "$dir" && GOFLAGS="$copy_goflags" go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}} {{join .TestImports ","}},{{join .XTestImports ","}}{{end}}' "$@")
  if [ "${#plain[@]}" -gt 0 ]; then
    (cd "$dir" && GOFLAGS="$copy_goflags" nice -n 10 go test -json -count=1 -p "$par" "${plain[@]}" >"$results/tests.gotest.json" 2>"$results/tests.stderr") || true
  fi
  if [ "${#ginkgo[@]}" -gt 0 ]; then
    (cd "$dir" && GOFLAGS="$copy_goflags" nice -n 10 go test -json -count=1 -p "$par" "${ginkgo[@]}" \
      -args --ginkgo.json-report=ginkgo-report.json --ginkgo.no-color >"$results/ginkgo-suites.gotest.json" 2>"$results/ginkgo-suites.stderr") || true
    local pdir
    for pkg in "${ginkgo[@]}"; do
      pdir="$(cd "$dir" && GOFLAGS="$copy_goflags" go list -f '{{.Dir}}' "$pkg")"
      if [ -f "$pdir/ginkgo-report.json" ]; then
        mv "$pdir/ginkgo-report.json" "$results/${pkg//\//_}.ginkgo.json"
      fi
    done
  fi
}

status=0
summary=()
n=0
for p in "${projects[@]}"; do
  n=$((n + 1))
  mod="${module[$p]}"
  pkgs="${ci_pkgs[$p]}"
  if [ "$full" = 1 ]; then
    pkgs="${full_pkgs[$p]}"
  fi
  if [ -n "${DROPIN_PKGS:-}" ]; then
    pkgs="$DROPIN_PKGS"
  fi
  src="$(go mod download -json "$mod" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  if [ -z "$src" ] || [ ! -f "$src/go.mod" ]; then
    echo "cannot download $mod" >&2
    exit 1
  fi
  # Only the full set runs envtest suites (pkg/client, pkg/cache and more);
  # the CI subset (pkg/client/fake) needs no API server.
  if [ "$p" = controller-runtime ] && [ "$full" = 1 ] && [ -z "${KUBEBUILDER_ASSETS:-}" ]; then
    KUBEBUILDER_ASSETS="$("$root/test/integration/controlplane/build.sh")"
    export KUBEBUILDER_ASSETS
  fi
  for side in client-go dropin; do
    copy="$work/src/$p-$side"
    chmod -R u+w "$copy" 2>/dev/null || true
    rm -rf "$copy" "$work/results/$p-$side"
    mkdir -p "$work/src"
    cp -R "$src" "$copy"
    chmod -R u+w "$copy"
    # Module zips keep no file modes: give the scripts in the tree their
    # execute bit back (kubectl's TestEdit runs testdata/test_editor.sh).
    find "$copy" -name '*.sh' -exec chmod +x {} +
    # Both sides build on client-go v0.37.2's requirements: the reference
    # is the release the drop-in stands in for (controller-runtime v0.25.3
    # itself asks for v0.37.0), the drop-in replaces it.
    (cd "$copy" && go mod edit -require k8s.io/client-go@v0.37.2)
    if [ "$side" = dropin ]; then
      (cd "$copy" && go mod edit -replace "k8s.io/client-go=$dropin")
    fi
    log "[$n/${#projects[@]}] $p ($mod) against $side ($([ "$side" = dropin ] && echo "the drop-in, $dropin" || echo "k8s.io/client-go v0.37.2")): go test $pkgs"
    # shellcheck disable=SC2086 # pkgs is a list of patterns
    progress_run "$p against $side (compiling and testing)" "$work/results/$p-$side.log" \
      run_tests "$copy" "$work/results/$p-$side" $pkgs
  done
  if ! out="$(go run ./cmd/dropin/compare -name "$p" "$work/results/$p-client-go" "$work/results/$p-dropin")"; then
    status=1
  fi
  echo "$out"
  summary+=("$(echo "$out" | grep -E ' (go tests|ginkgo specs): ' || true)")
done
echo
scope="CI subset"
if [ -n "${DROPIN_PKGS:-}" ]; then scope="DROPIN_PKGS=$DROPIN_PKGS"; elif [ "$full" = 1 ]; then scope=full; fi
echo "drop-in conformance summary ($scope):"
printf '%s\n' "${summary[@]}"
exit "$status"
