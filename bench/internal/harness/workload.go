package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/kubeclient/client-go/bench/internal/fixture"
)

// Params describe one measurement.
type Params struct {
	Workload string // see Workloads
	Format   string // json or protobuf
	Resource string // pods, configmaps or widgets
	// Fixture is the objects' layout (fixture.Grouped when empty).
	Fixture fixture.Layout
	N       int    // objects
	Events  int    // MODIFIED events after the sync
	Ops     int    // calls for get and list; adds per producer for workqueue
	Host    string // the fake server
}

// Result is one measurement, printed as one JSON line.
type Result struct {
	Lib      string             `json:"lib"`
	Workload string             `json:"workload"`
	Format   string             `json:"format"`
	Resource string             `json:"resource"`
	Fixture  string             `json:"fixture,omitempty"` // empty for the grouped layout
	N        int                `json:"n"`
	Events   int                `json:"events"`
	Metrics  map[string]float64 `json:"metrics"`
	Error    string             `json:"error,omitempty"`
}

// Workload describes one workload: what the fake server must prepare and
// the body that measures it.
type Workload struct {
	Name string
	// Server needs: watch-list initial events, a relist after a 410,
	// metadata answers.
	WatchList, Relist, Metadata bool
	// NeedsServer is false for workloads that talk to no server.
	NeedsServer bool
	// EventStream: the server sends MODIFIED events after the sync.
	EventStream bool
	// ControllerRuntime workloads are measured by crbench, the others by
	// informerbench.
	ControllerRuntime bool
	// Resource, when set, is the only resource the workload measures.
	Resource string
	run      func(ctx context.Context, lib Lib, p Params, res *fixture.Resource) (map[string]float64, error)
}

// Workloads are the benchmark's workloads by name.
var Workloads = map[string]*Workload{
	"informer":        {Name: "informer", NeedsServer: true, EventStream: true, run: typedInformer},
	"watchlist":       {Name: "watchlist", NeedsServer: true, EventStream: true, WatchList: true, run: typedInformer},
	"relist":          {Name: "relist", NeedsServer: true, Relist: true, run: typedInformer},
	"readers":         {Name: "readers", NeedsServer: true, EventStream: true, run: readersInformer},
	"crd":             {Name: "crd", NeedsServer: true, EventStream: true, Resource: "crontabs", run: crdInformer},
	"dynamic":         {Name: "dynamic", NeedsServer: true, EventStream: true, run: dynamicInformer},
	"metadata":        {Name: "metadata", NeedsServer: true, EventStream: true, Metadata: true, run: metadataInformer},
	"get":             {Name: "get", NeedsServer: true, run: restGet},
	"list":            {Name: "list", NeedsServer: true, run: restList},
	"workqueue":       {Name: "workqueue", run: workqueueContention},
	"workqueue-named": {Name: "workqueue-named", run: namedWorkqueueContention},

	"cr-informer":     {Name: "cr-informer", NeedsServer: true, EventStream: true, ControllerRuntime: true, run: crInformer},
	"cr-unstructured": {Name: "cr-unstructured", NeedsServer: true, EventStream: true, ControllerRuntime: true, run: crUnstructuredInformer},
	"cr-list":         {Name: "cr-list", NeedsServer: true, ControllerRuntime: true, run: crList},
}

// WorkloadNames lists the workloads in a stable order.
func WorkloadNames() []string {
	var names []string
	for n := range Workloads {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LibWorkloads lists, in a stable order, the workloads informerbench
// measures; ControllerRuntimeWorkloads those crbench measures.
func LibWorkloads() []string { return workloadsWhere(false) }

// ControllerRuntimeWorkloads: see LibWorkloads.
func ControllerRuntimeWorkloads() []string { return workloadsWhere(true) }

func workloadsWhere(controllerRuntime bool) []string {
	var names []string
	for _, n := range WorkloadNames() {
		if Workloads[n].ControllerRuntime == controllerRuntime {
			names = append(names, n)
		}
	}
	// informer first: it is the default workload.
	for i, n := range names {
		if n == "informer" || n == "cr-informer" {
			names[0], names[i] = names[i], names[0]
		}
	}
	return names
}

// Run measures p with lib.
func Run(ctx context.Context, lib Lib, p Params) Result {
	r := Result{Lib: lib.Name(), Workload: p.Workload, Format: p.Format, Resource: p.Resource, N: p.N, Events: p.Events}
	if p.Fixture == fixture.Spread {
		r.Fixture = string(p.Fixture)
	}
	w, ok := Workloads[p.Workload]
	if !ok {
		r.Error = fmt.Sprintf("unknown workload %q", p.Workload)
		return r
	}
	var res *fixture.Resource
	if w.NeedsServer {
		var err error
		if res, err = fixture.ByNameIn(p.Resource, p.Fixture); err != nil {
			r.Error = err.Error()
			return r
		}
	}
	m, err := w.run(ctx, lib, p, res)
	r.Metrics = m
	if err != nil {
		r.Error = err.Error()
	}
	return r
}

// control talks to the fake server's /bench/ endpoints.
type control struct{ host string }

func (c control) phase(name string) error {
	resp, err := http.Get(c.host + "/bench/go?phase=" + name)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fake server: phase %s: %s", name, resp.Status)
	}
	return nil
}

type serverStats struct {
	Gets, Lists, ListPages, Watches, WatchLists, EventsSent, Expired int64
}

func (c control) stats() (serverStats, error) {
	var s serverStats
	resp, err := http.Get(c.host + "/bench/stats")
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	return s, json.NewDecoder(resp.Body).Decode(&s)
}

// timeout bounds every wait: generous, for a loaded machine.
func timeout(n int) time.Duration { return time.Minute + time.Duration(n)*2*time.Millisecond }
