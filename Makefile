# demo: run the demo controller against a local kube-apiserver + etcd
#       (hack/demo.sh starts and stops it; the first run builds the servers).
# test: the library's unit tests (hack/test.sh).
# bench: side-by-side benchmark against client-go v0.37.2 (bench/README.md);
#        BENCH_QUICK=1 for a one-round smoke run.
.PHONY: demo test bench

demo:
	hack/demo.sh

test:
	hack/test.sh

bench:
	bench/run.sh
