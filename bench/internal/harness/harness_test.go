package harness_test

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/kubeclient/client-go/bench/internal/fixture"
	"github.com/kubeclient/client-go/bench/internal/harness"
	"github.com/kubeclient/client-go/bench/internal/libs/clientgo"
	"github.com/kubeclient/client-go/bench/internal/libs/kubeclient"
	"github.com/kubeclient/client-go/bench/internal/server"
)

// Both libraries read KUBE_FEATURE_WatchListClient once; paginated LIST
// for every workload here (informerbench runs watchlist in a process with
// it on).
func TestMain(m *testing.M) {
	os.Setenv("KUBE_FEATURE_WatchListClient", "false")
	os.Exit(m.Run())
}

// TestWorkloads runs every workload but watchlist and the cr-* ones
// (crbench's), small, for both
// libraries, against the fake server in this process: each must pass its
// own checks (objects in the cache, every event seen, the relist made).
func TestWorkloads(t *testing.T) {
	for _, lib := range []harness.Lib{clientgo.Lib{}, kubeclient.Lib{}} {
		for _, tc := range []harness.Params{
			{Workload: "informer", Format: "json", Resource: "pods", N: 60, Events: 90},
			{Workload: "informer", Format: "protobuf", Resource: "configmaps", N: 60, Events: 60},
			{Workload: "dynamic", Format: "json", Resource: "widgets", N: 60, Events: 60},
			{Workload: "metadata", Format: "protobuf", Resource: "pods", N: 60, Events: 60},
			{Workload: "relist", Format: "protobuf", Resource: "pods", N: 600},
			{Workload: "readers", Format: "json", Resource: "pods", N: 100, Events: 100},
			{Workload: "readers", Format: "protobuf", Resource: "pods", N: 100, Events: 100},
			{Workload: "get", Format: "json", Resource: "pods", N: 10, Ops: 20},
			{Workload: "list", Format: "protobuf", Resource: "pods", N: 700, Ops: 2},
			{Workload: "workqueue", Ops: 2000},
			{Workload: "workqueue-named", Ops: 2000},
			{Workload: "informer", Format: "protobuf", Resource: "pods", Fixture: fixture.Spread, N: 60, Events: 60},
			{Workload: "crd", Format: "json", Resource: "crontabs", N: 60, Events: 60},
		} {
			t.Run(lib.Name()+"/"+tc.Workload+"/"+tc.Format+"/"+tc.Resource+"/"+string(tc.Fixture), func(t *testing.T) {
				w := harness.Workloads[tc.Workload]
				if w.NeedsServer {
					res, err := fixture.ByNameIn(tc.Resource, tc.Fixture)
					if err != nil {
						t.Fatal(err)
					}
					srv, err := server.New(server.Config{Resource: res, N: tc.N, Events: tc.Events,
						Protobuf: tc.Format == "protobuf", Metadata: w.Metadata, WatchList: w.WatchList, Relist: w.Relist})
					if err != nil {
						t.Fatal(err)
					}
					hs := httptest.NewServer(srv)
					defer hs.Close()
					tc.Host = hs.URL
				}
				r := harness.Run(context.Background(), lib, tc)
				if r.Error != "" {
					t.Fatal(r.Error)
				}
				if len(r.Metrics) == 0 {
					t.Fatal("no metrics")
				}
			})
		}
	}
}
