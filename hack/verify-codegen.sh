#!/usr/bin/env bash
# Regenerates into a temporary copy of the generated trees and fails, listing
# the files, when the checked-in code differs from what the generator makes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$root"
# Trees the generator writes. Hand-written files in them are copied along so
# that the generator sees the same expansions as in the checkout.
dirs=(kubernetes applyconfigurations listers informers internal/jsondecode internal/protodecode)
for d in "${dirs[@]}"; do
  if [ -d "$d" ]; then
    mkdir -p "$(dirname "$tmp/$d")"
    cp -R "$d" "$tmp/$d"
  fi
done
"$root/hack/update-codegen.sh" "$tmp"
status=0
for d in "${dirs[@]}"; do
  if [ ! -e "$root/$d" ] && [ ! -e "$tmp/$d" ]; then
    continue
  fi
  if ! diff -r -q "$root/$d" "$tmp/$d" >/dev/null 2>&1; then
    status=1
    diff -r -q "$root/$d" "$tmp/$d" 2>&1 | sed "s|$tmp/|generated: |g; s|$root/|checked in: |g" >&2 || true
  fi
done
if [ "$status" -ne 0 ]; then
  echo "generated code is out of date: run hack/update-codegen.sh" >&2
  exit 1
fi
echo "generated code is up to date"

# --- examples/crd: the generator run on a user's own CRD types -------------
# Regenerates examples/crd into a temporary tree (generated/ and the deepcopy
# and decoders files of apis/stable/v1) and diffs it against the checkout.
crdtmp="$(mktemp -d)"
trap 'rm -rf "$tmp" "$crdtmp"' EXIT
"$root/examples/crd/hack/update-codegen.sh" "$crdtmp/generated"
crdstatus=0
if ! diff -r -q "$root/examples/crd/generated" "$crdtmp/generated" >/dev/null 2>&1; then
  crdstatus=1
  diff -r -q "$root/examples/crd/generated" "$crdtmp/generated" 2>&1 | sed "s|$crdtmp/|generated: |g; s|$root/examples/crd/|checked in: |g" >&2 || true
fi
for f in zz_generated.deepcopy.go zz_generated.decoders.go zz_generated.decoders_test.go; do
  if ! diff -q "$root/examples/crd/apis/stable/v1/$f" "$crdtmp/apis/stable/v1/$f" >/dev/null 2>&1; then
    crdstatus=1
    echo "examples/crd/apis/stable/v1/$f differs" >&2
  fi
done
if [ "$crdstatus" -ne 0 ]; then
  echo "examples/crd generated code is out of date: run examples/crd/hack/update-codegen.sh" >&2
  exit 1
fi
echo "examples/crd generated code is up to date"
