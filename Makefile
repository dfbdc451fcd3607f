# demo: run the demo controller against a local kube-apiserver + etcd
#       (hack/demo.sh starts and stops it; the first run builds the servers).
# test: the library's unit tests (hack/test.sh).
.PHONY: demo test

demo:
	hack/demo.sh

test:
	hack/test.sh
