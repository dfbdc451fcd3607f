#!/bin/sh
# bench/run.sh: the side-by-side benchmark of kubeclient against
# k8s.io/client-go v0.37.2 (issues #11, #27). Builds cmd/informerbench and,
# for the cr-* workloads, crbench twice (against client-go, and against the
# kubeclient drop-in that cmd/dropin writes), runs every
# workload ROUNDS times for each library, alternating which goes first,
# each measurement in a fresh process with the fake API server in a child
# process, then prints a markdown table (medians, min-max, ratio
# kubeclient/client-go). See README.md.
#
# Environment:
#   ROUNDS=5            rounds (each runs every workload for both libraries)
#   SIZES=10000         object counts for the informer workloads, e.g. "1000 10000 50000"
#   LIST_N=5000         objects in the unpaginated LIST workload
#   WORKLOADS=...       workload specs "name:format" or "name:format:fixture"
#                       (fixture grouped, the default, or spread; default: all, see below)
#   BENCH_QUICK=1       smoke test: 1 round, SIZES=1000, LIST_N=1000, few ops
#   OUT=file            where the JSON result lines go (default: a file under /tmp)
set -eu
cd "$(dirname "$0")"

if [ "${BENCH_QUICK:-}" = 1 ]; then
	ROUNDS=${ROUNDS:-1}
	SIZES=${SIZES:-1000}
	LIST_N=${LIST_N:-1000}
	GET_OPS=${GET_OPS:-200}
	LIST_OPS=${LIST_OPS:-2}
	WQ_OPS=${WQ_OPS:-20000}
fi
ROUNDS=${ROUNDS:-5}
SIZES=${SIZES:-10000}
LIST_N=${LIST_N:-5000}
GET_OPS=${GET_OPS:-2000}
LIST_OPS=${LIST_OPS:-5}
WQ_OPS=${WQ_OPS:-250000}
WORKLOADS=${WORKLOADS:-"informer:json informer:protobuf readers:json readers:protobuf watchlist:json watchlist:protobuf dynamic:json metadata:protobuf metadata:json relist:json relist:protobuf get:json get:protobuf list:json list:protobuf workqueue:- workqueue-named:- informer:json:spread informer:protobuf:spread readers:protobuf:spread dynamic:json:spread crd:json cr-informer:protobuf cr-informer:json cr-unstructured:json cr-list:protobuf cr-list:json cr-informer:protobuf:spread"}
OUT=${OUT:-$(mktemp /tmp/informerbench.XXXXXX.jsonl)}

bin=$(mktemp -d /tmp/informerbench.bin.XXXXXX)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/informerbench" ./cmd/informerbench
case " $WORKLOADS" in
*" cr-"*)
	# crbench against client-go v0.37.2 as its go.mod says, and against
	# the drop-in of this checkout, each through a copy of its go.mod (so
	# that a library change that moves a requirement does not stop the
	# run, and the checkout is left as it is).
	echo "# building the drop-in and crbench (controller-runtime workloads)" >&2
	(cd .. && go run ./cmd/dropin -o "$bin/dropin" >/dev/null)
	for lib in client-go kubeclient; do
		cp crbench/go.mod "$bin/crbench-$lib.mod"
		cp crbench/go.sum "$bin/crbench-$lib.sum"
	done
	go mod edit -modfile="$bin/crbench-kubeclient.mod" -replace "k8s.io/client-go=$bin/dropin"
	for lib in client-go kubeclient; do
		(cd crbench && GOFLAGS=-mod=mod go build -modfile="$bin/crbench-$lib.mod" -o "$bin/crbench-$lib" .)
	done
	;;
esac

echo "# informerbench: rounds=$ROUNDS sizes=$SIZES list_n=$LIST_N results=$OUT" >&2
echo "# load before: $(uptime)" >&2
failed=0
round=1
while [ "$round" -le "$ROUNDS" ]; do
	if [ $((round % 2)) = 1 ]; then libs="client-go kubeclient"; else libs="kubeclient client-go"; fi
	for spec in $WORKLOADS; do
		w=${spec%%:*}
		f=${spec#*:}
		fx=grouped
		case $f in *:*) fx=${f#*:}; f=${f%%:*} ;; esac
		[ "$f" = "-" ] && f=json
		case $w in
		get) sizes=1000; extra="-ops $GET_OPS" ;;
		list | cr-list) sizes=$LIST_N; extra="-ops $LIST_OPS" ;;
		workqueue | workqueue-named) sizes=0; extra="-ops $WQ_OPS" ;;
		*) sizes=$SIZES; extra="" ;;
		esac
		for n in $sizes; do
			for lib in $libs; do
				echo "# round $round/$ROUNDS: $w $f $fx n=$n $lib" >&2
				prog="$bin/informerbench"
				case $w in cr-*) prog="$bin/crbench-$lib" ;; esac
				# shellcheck disable=SC2086
				if ! "$prog" -lib "$lib" -workload "$w" -format "$f" -fixture "$fx" -n "$n" $extra >>"$OUT"; then
					failed=$((failed + 1))
				fi
			done
		done
	done
	round=$((round + 1))
done
echo "# load after: $(uptime)" >&2
"$bin/informerbench" -table "$OUT"
if [ "$failed" -gt 0 ]; then
	echo "$failed measurement(s) failed; see above and $OUT" >&2
	exit 1
fi
