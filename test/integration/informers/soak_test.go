package informers

import (
	"context"
	"maps"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/testenv"
	"github.com/kubeclient/client-go/testenv/faultproxy"
)

// Environment variables of the soak.
const (
	// soakModeEnv set to "long" runs the long soak (>= 20 minutes).
	soakModeEnv = "KUBECLIENT_SOAK"
	// soakSeedEnv fixes the seed of the fault schedule and the writers'
	// choices; by default it is taken from the clock and logged.
	soakSeedEnv = "KUBECLIENT_SOAK_SEED"
)

// soakPlan sizes a soak run.
type soakPlan struct {
	writes    int           // acknowledged writes to make
	minFaults int           // faults the proxy must have injected
	duration  time.Duration // the writers are paced to last about this long
	restarts  int           // kube-apiserver restarts, evenly spread over the writes
	rate      float64       // fault probability per request
}

var (
	shortSoak = soakPlan{writes: 1200, minFaults: 100, restarts: 1, rate: 0.15}
	longSoak  = soakPlan{writes: 6000, minFaults: 1000, duration: 21 * time.Minute, restarts: 2, rate: 0.2}
)

// TestSoak runs typed, dynamic and metadata informers, a workqueue-driven
// controller and three leader-election candidates through a fault proxy
// (connection resets, watch streams cut mid-event, delays, 429s, 5xx,
// stalled watches) while writers make thousands of changes and
// kube-apiserver is restarted (and etcd compacted, forcing 410s) under
// load. At the end, with faults off: every informer's store equals the
// server's List; each handler saw, per object, only states the server
// acknowledged, in order, ending with the final one; the controller
// processed the final state of every key; no two candidates led at once,
// by their callbacks and by the Lease's holder; and nothing of the library
// keeps running after everything was stopped.
//
// The short form (default) takes about two minutes; KUBECLIENT_SOAK=long
// runs for more than 20 minutes with at least 5,000 writes and 1,000
// faults.
func TestSoak(t *testing.T) {
	plan := shortSoak
	if os.Getenv(soakModeEnv) == "long" {
		plan = longSoak
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(soakSeedEnv); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", soakSeedEnv, s, err)
		}
	}
	t.Logf("soak: seed %d, plan %+v", seed, plan)
	framework.DumpLogsOnFailure(t, controlPlane)

	baseline := len(libraryGoroutines())
	ctx, cancel := context.WithTimeout(context.Background(), plan.duration+8*time.Minute)
	defer cancel()
	ns := controlPlane.Namespace(t)
	cs := newClientset(t) // direct: the referee's view of the server
	pre := createPreexisting(t, ctx, ns, preexisting)

	proxy, err := controlPlane.FaultProxy(faultproxy.Schedule{
		Seed:      seed,
		Rate:      plan.rate,
		WatchRate: 0.5,
		// About one event in a hundred ends its watch mid-event.
		EventCutRate: 0.01,
		// For watches, cuts are the most telling fault; other requests
		// cannot be cut or stalled and draw among the rest.
		Weights: map[faultproxy.Fault]int{
			faultproxy.Reset: 1, faultproxy.Cut: 3, faultproxy.Delay: 1,
			faultproxy.TooManyRequests: 1, faultproxy.ServerError: 1, faultproxy.Stall: 1,
		},
		MaxDelay: time.Second,
		MaxStall: 15 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	// Every kind of fault happens at least once, whatever the draws.
	proxy.Inject(faultproxy.Reset, faultproxy.Cut, faultproxy.Delay,
		faultproxy.TooManyRequests, faultproxy.ServerError, faultproxy.Stall)
	proxied := testenv.ThroughProxy(controlPlane.AdminConfig(), proxy)
	proxied.QPS, proxied.Burst = -1, 0 // no client-side throttling

	// Everything under test runs until runCtx ends.
	runCtx, stopRun := context.WithCancel(ctx)
	var watchedKinds []*watched
	for _, kind := range informerKinds {
		watchedKinds = append(watchedKinds, startInformer(t, runCtx, kind, proxied, ns))
	}
	controller, err := newSoakController(proxied, ns)
	if err != nil {
		t.Fatal(err)
	}
	controller.start(runCtx)
	terms := &termLog{}
	waitCandidates, err := runCandidates(runCtx, proxied, ns, "soak-leader", 3, terms)
	if err != nil {
		t.Fatal(err)
	}
	var samples []leaseSample
	var observer sync.WaitGroup
	observer.Add(1)
	go func() {
		defer observer.Done()
		samples = watchLease(runCtx, cs, ns, "soak-leader")
	}()

	// The writers go through the proxy too; a write whose outcome a fault
	// hid is resolved by reading it back.
	writerCS, err := kubernetes.NewForConfig(proxied)
	if err != nil {
		t.Fatal(err)
	}
	restartAt := make(chan int64, plan.restarts)
	next := 1
	var pace time.Duration
	const writers = 4
	if plan.duration > 0 {
		pace = plan.duration * writers / time.Duration(plan.writes)
	}
	var progress sync.Mutex
	writePlanned := writePlan{writers: writers, namesPerWriter: 16, total: plan.writes, tolerant: true, quiet: true, seed: seed,
		onProgress: func(acked int64) {
			progress.Lock()
			if next <= plan.restarts && acked >= int64(plan.writes*next/(plan.restarts+1)) {
				restartAt <- acked
				next++
			}
			progress.Unlock()
			if pace > 0 {
				time.Sleep(pace)
			}
		}}
	started := time.Now()
	results := make(chan writeResult, 1)
	go func() { results <- runWriters(t, ctx, writerCS, ns, writePlanned) }()

	var result writeResult
	for restarts := 0; result.records == nil; {
		select {
		case acked := <-restartAt:
			restarts++
			restartUnderLoad(t, ctx, acked, restarts)
		case result = <-results:
		case <-ctx.Done():
			t.Fatalf("soak: %v before the writers finished", ctx.Err())
		}
	}
	elapsed := time.Since(started)
	stats := proxy.Stats()
	t.Logf("soak: writers %v in %v; proxy %v (%d faults)", result.stats, elapsed.Round(time.Second), stats, proxy.Faults())

	// The referee: faults off, then the server's List is the truth.
	proxy.SetEnabled(false)
	want := result.final()
	maps.Copy(want, pre)
	server, _, err := serverState(ctx, cs, ns)
	if err != nil {
		t.Fatalf("listing ConfigMaps: %v", err)
	}
	if diffs := stateDiffs(server, want, true); len(diffs) > 0 {
		t.Errorf("the server's List differs from the acknowledged writes (%d): %s", len(diffs), head(diffs))
	}
	everCreated := append(result.everCreated(), keys(pre)...)
	for _, w := range watchedKinds {
		t.Run(w.kind.name, func(t *testing.T) {
			want := server
			if !w.kind.withData {
				want = map[string]objState{}
				for name, st := range server {
					want[name] = objState{RV: st.RV}
				}
			}
			waitConverged(t, ctx, w, want, everCreated, true)
			for name, rec := range result.records {
				for _, ev := range w.events.historyOf(name) {
					if ev.kind != evDelete && !rec.known[ev.state.RV] {
						t.Errorf("%s: handler saw %s %v, a resourceVersion no write or read returned", name, ev.kind, ev.state)
					}
				}
			}
		})
	}
	if diffs := controller.waitProcessed(ctx, server, everCreated, convergeTimeout); len(diffs) > 0 {
		t.Errorf("the controller did not process the final state of every key (%d): %s", len(diffs), head(diffs))
	}

	// Stop everything under test, then judge the election.
	stopRun()
	waitCandidates()
	observer.Wait()
	controller.stop()
	for _, w := range watchedKinds {
		w.shutdown()
	}
	proxy.Close()
	log := terms.snapshot()
	t.Logf("soak: %d leadership terms, %d Lease samples, controller processed %d keys", len(log), len(samples), controller.count)
	if len(log) == 0 {
		t.Errorf("no candidate ever led")
	}
	if o := overlaps(log); len(o) > 0 {
		t.Errorf("two candidates led at once (%d): %s", len(o), head(o))
	}
	if c := leaseContradictions(log, samples); len(c) > 0 {
		t.Errorf("the Lease names another holder during a term (%d): %s", len(c), head(c))
	}

	if s := result.stats; plan.writes > 0 && s.creates+s.recreates+s.updates+s.deletes < plan.writes {
		t.Errorf("only %d writes acknowledged, want %d", s.creates+s.recreates+s.updates+s.deletes, plan.writes)
	}
	if proxy.Faults() < plan.minFaults {
		t.Errorf("only %d faults injected, want at least %d", proxy.Faults(), plan.minFaults)
	}
	for f, n := range stats {
		if n == 0 {
			t.Errorf("no %v fault was injected", f)
		}
	}
	if left := waitLibraryGoroutines(baseline, 30*time.Second); len(left) > 0 {
		t.Errorf("%d library goroutines still run after everything stopped (%d before the soak):\n%s",
			len(left), baseline, head(left))
	}
	t.Logf("soak: seed %d, %d writes, %d faults %v, %d restarts, %v", seed,
		result.stats.creates+result.stats.recreates+result.stats.updates+result.stats.deletes,
		proxy.Faults(), stats, plan.restarts, time.Since(started).Round(time.Second))
}

// restartUnderLoad restarts kube-apiserver and compacts etcd to its
// current revision, so that the informers' next watch from an older
// resourceVersion gets 410 Gone.
func restartUnderLoad(t *testing.T, ctx context.Context, acked int64, n int) {
	t.Helper()
	stopping := time.Now()
	if err := controlPlane.RestartAPIServer(ctx); err != nil {
		t.Fatalf("restart %d of kube-apiserver: %v", n, err)
	}
	rev, err := controlPlane.EtcdRevision(ctx)
	if err == nil {
		err = controlPlane.CompactEtcd(ctx, rev)
	}
	if err != nil {
		t.Errorf("compacting etcd after restart %d: %v", n, err)
	}
	t.Logf("soak: restart %d of kube-apiserver after %d writes took %v; etcd compacted at %d",
		n, acked, time.Since(stopping).Round(time.Millisecond), rev)
}
