// Command crbench measures controller-runtime v0.25.3's cache and client
// (the cr-* workloads of package harness) over the client library it was
// built with, and prints each result as informerbench does. It is a module
// of its own because it is built twice: as it is, against
// k8s.io/client-go v0.37.2, and with `replace k8s.io/client-go =>` the
// kubeclient drop-in (cmd/dropin); the build reports which it is (-lib
// must agree). bench/run.sh builds both and alternates them with the
// other workloads.
//
//	crbench -lib=client-go|kubeclient -workload=cr-informer -format=protobuf -n=10000
package main

import (
	"runtime/debug"

	"github.com/kubeclient/client-go/bench/internal/cli"
	"github.com/kubeclient/client-go/bench/internal/harness"
)

func main() {
	cli.Main(map[string]harness.Lib{libName(): Lib{}}, harness.ControllerRuntimeWorkloads())
}

// libName is "kubeclient" when k8s.io/client-go was replaced (by the
// drop-in) in this build, "client-go" otherwise.
func libName() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "k8s.io/client-go" && d.Replace != nil {
				return "kubeclient"
			}
		}
	}
	return "client-go"
}
