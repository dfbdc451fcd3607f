// Package sharding tests tools/sharding against a real kube-apiserver
// started with the ShardedListAndWatch feature gate: the client's hash and
// selector grammar agree with the server's (hashcompat_test.go), and three
// replicas of a sharded controller split 10,000 ConfigMaps, survive a kill
// and a join without two replicas ever reconciling one object at once, on
// the server's sharded watch and, with the gate off, through the
// client-side fallback (e2e_test.go).
package sharding

import (
	"testing"

	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/testenv"
)

// shardingGate is kube-apiserver's feature gate for sharded list and watch.
const shardingGate = "ShardedListAndWatch"

// controlPlane runs with the gate on; the fallback test starts its own.
var controlPlane *framework.ControlPlane

func TestMain(m *testing.M) {
	framework.RunMainWithOptions(m, &controlPlane, testenv.Options{
		FeatureGates:             map[string]bool{shardingGate: true},
		DisableControllerManager: true,
	})
}
