// Command informerbench measures one workload with one library and prints
// the result as one JSON line; bench/run.sh runs it in rounds, alternating
// the libraries, and turns the lines into a table (informerbench -table).
//
// Each measurement is a process of its own, so heaps do not carry over. The
// fake API server runs as a child process (informerbench -serve), so its CPU
// and memory are not counted; it encodes everything before it reports
// ready. The controller-runtime workloads are measured by crbench, a module
// of its own (bench/crbench).
//
//	informerbench -lib=client-go|kubeclient -workload=informer -n=10000 -format=json
//	informerbench -table results.jsonl
package main

import (
	"github.com/kubeclient/client-go/bench/internal/cli"
	"github.com/kubeclient/client-go/bench/internal/harness"
	"github.com/kubeclient/client-go/bench/internal/libs/clientgo"
	"github.com/kubeclient/client-go/bench/internal/libs/kubeclient"
)

func main() {
	cli.Main(map[string]harness.Lib{"client-go": clientgo.Lib{}, "kubeclient": kubeclient.Lib{}}, harness.LibWorkloads())
}
