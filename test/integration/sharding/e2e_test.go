package sharding

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/testenv"
	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/tools/sharding"
)

// The end-to-end test runs replicas of a sharded ConfigMap controller in
// this process, each with its own clients. A reconcile stamps the object
// with its replica's name. Phases: three replicas split the objects; one
// is killed (its transport cut, then stopped: its Lease is not released);
// one is added. After each phase the test waits until every object carries
// the stamp of the replica the assignment of the live members gives it.
// A recorder keeps every reconcile's start and end and every slot's
// ownership intervals; the checker proves that no object was reconciled by
// two replicas at overlapping times and no slot stayed unowned longer than
// the bound.

const (
	e2eSlots      = 64
	e2eLease      = 10 * time.Second
	e2eRenew      = 7 * time.Second
	e2eRetry      = 1 * time.Second
	e2eWorkers    = 8
	ownerAnn      = "sharding-e2e/owner"
	phaseTimeout  = 3 * time.Minute
	boundSlack    = 2 * time.Second // polling and scheduling on a loaded 2-core machine
	defaultE2ECMs = 10000
)

func e2eObjects(t *testing.T) int {
	if v := os.Getenv("KUBECLIENT_SHARDING_OBJECTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 30 {
			t.Fatalf("KUBECLIENT_SHARDING_OBJECTS=%q: want a number >= 30", v)
		}
		return n
	}
	return defaultE2ECMs
}

// interval is a span of test time, end < 0 while open.
type interval struct {
	replica    string
	start, end time.Duration
}

// recorder keeps reconciles per object and ownership per slot.
type recorder struct {
	base time.Time

	mu         sync.Mutex
	reconciles map[types.UID][]*interval
	owners     map[int][]*interval // slot -> ownership intervals in start order
	open       map[string]map[int]*interval
}

func newRecorder() *recorder {
	return &recorder{base: time.Now(), reconciles: map[types.UID][]*interval{}, owners: map[int][]*interval{}, open: map[string]map[int]*interval{}}
}

func (r *recorder) now() time.Duration { return time.Since(r.base) }

func (r *recorder) begin(replica string, uid types.UID) *interval {
	iv := &interval{replica: replica, start: r.now(), end: -1}
	r.mu.Lock()
	r.reconciles[uid] = append(r.reconciles[uid], iv)
	r.mu.Unlock()
	return iv
}

func (r *recorder) finish(iv *interval) {
	end := r.now()
	r.mu.Lock()
	iv.end = end
	r.mu.Unlock()
}

// shard records a replica's new slots, called after the controller applied
// them: a lost slot's work has stopped.
func (r *recorder) shard(replica string, s sharding.Shard) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	open := r.open[replica]
	if open == nil {
		open = map[int]*interval{}
		r.open[replica] = open
	}
	next := map[int]bool{}
	for _, slot := range s.Slots {
		next[slot] = true
		if open[slot] == nil {
			iv := &interval{replica: replica, start: now, end: -1}
			open[slot] = iv
			r.owners[slot] = append(r.owners[slot], iv)
		}
	}
	for slot, iv := range open {
		if !next[slot] {
			iv.end = now
			delete(open, slot)
		}
	}
}

// overlaps returns the objects reconciled by two replicas at overlapping
// times.
func (r *recorder) overlaps() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	total := 0
	for uid, ivs := range r.reconciles {
		total += len(ivs)
		for i, a := range ivs {
			for _, b := range ivs[i+1:] {
				if a.replica == b.replica {
					continue
				}
				aEnd, bEnd := a.end, b.end
				if aEnd < 0 {
					aEnd = 1 << 62
				}
				if bEnd < 0 {
					bEnd = 1 << 62
				}
				if a.start < bEnd && b.start < aEnd {
					out = append(out, fmt.Sprintf("object %s: %s reconciled it during [%v, %v], %s during [%v, %v]", uid, a.replica, a.start, a.end, b.replica, b.start, b.end))
				}
			}
		}
	}
	return out
}

// slotOverlapsAndGaps checks ownership intervals after test time from: no
// slot owned by two replicas at once, and returns the longest time a slot
// had no owner between two owners.
func (r *recorder) slotOverlapsAndGaps(from time.Duration) (overlaps []string, longest time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for slot, ivs := range r.owners {
		sorted := slices.Clone(ivs)
		slices.SortFunc(sorted, func(a, b *interval) int { return int(a.start - b.start) })
		for i := 1; i < len(sorted); i++ {
			prev, cur := sorted[i-1], sorted[i]
			if prev.end < 0 || prev.end > cur.start {
				overlaps = append(overlaps, fmt.Sprintf("slot %d: %s owned it [%v, %v], %s from %v", slot, prev.replica, prev.start, prev.end, cur.replica, cur.start))
				continue
			}
			if prev.end >= from {
				longest = max(longest, cur.start-prev.end)
			}
		}
	}
	return overlaps, longest
}

// replica is one in-process replica of the controller.
type replica struct {
	id      string
	ctrl    *sharding.Controller
	cancel  context.CancelFunc
	done    chan struct{}
	cut     atomic.Bool
	events  atomic.Int64 // watch events received from the server
	foreign atomic.Int64 // of which outside the selector the watch asked for
}

// cutTransport fails every request once cut is set: the replica is dead to
// the server.
type cutTransport struct {
	next http.RoundTripper
	cut  *atomic.Bool
}

func (c cutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if c.cut.Load() {
		return nil, errors.New("replica killed")
	}
	return c.next.RoundTrip(req)
}

type e2e struct {
	t    *testing.T
	env  *testenv.Env
	ns   string
	rec  *recorder
	mode sharding.Mode // the mode every replica must detect
	n    int

	replicas map[string]*replica
	live     []string
}

func (e *e2e) start(ctx context.Context, id string) *replica {
	t := e.t
	r := &replica{id: id, done: make(chan struct{})}
	cfg := e.env.AdminConfig()
	cfg.QPS, cfg.Burst = 2000, 4000
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return cutTransport{next: rt, cut: &r.cut} })
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cms := cs.CoreV1().ConfigMaps(e.ns)
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return cms.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			sel, err := sharding.ParseSelector(o.ShardSelector)
			if err != nil {
				return nil, fmt.Errorf("replica %s watches without a valid selector %q: %w", id, o.ShardSelector, err)
			}
			w, err := cms.Watch(ctx, o)
			if err != nil {
				return nil, err
			}
			return watch.Filter(w, func(ev watch.Event) (watch.Event, bool) {
				if ev.Type == watch.Added || ev.Type == watch.Modified || ev.Type == watch.Deleted {
					r.events.Add(1)
					if ok, _ := sel.Matches(ev.Object); !ok {
						r.foreign.Add(1)
					}
				}
				return ev, true
			}), nil
		},
	}
	ctrl, err := sharding.NewController(sharding.ControllerConfig{
		Member: sharding.MemberConfig{
			Client:        cs.CoordinationV1(),
			Namespace:     e.ns,
			Ring:          "e2e",
			Identity:      id,
			Slots:         e2eSlots,
			LeaseDuration: e2eLease,
			RenewDeadline: e2eRenew,
			RetryPeriod:   e2eRetry,
			OnShardChange: func(_ context.Context, s sharding.Shard) { e.rec.shard(id, s) },
		},
		ListerWatcher: lw,
		ObjectType:    &corev1.ConfigMap{},
		Workers:       e2eWorkers,
		Reconcile: func(ctx context.Context, key string, obj runtime.Object) error {
			if obj == nil {
				return nil
			}
			cm := obj.(*corev1.ConfigMap)
			iv := e.rec.begin(id, cm.UID)
			defer e.rec.finish(iv)
			if cm.Annotations[ownerAnn] == id {
				return nil
			}
			cm = cm.DeepCopy()
			if cm.Annotations == nil {
				cm.Annotations = map[string]string{}
			}
			cm.Annotations[ownerAnn] = id
			_, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
			return err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.ctrl = ctrl
	rctx, cancel := context.WithCancel(ctx)
	r.cancel = cancel
	go func() {
		defer close(r.done)
		ctrl.Run(rctx)
	}()
	e.replicas[id] = r
	e.live = append(e.live, id)
	return r
}

// kill cuts a replica off the server and stops it: nothing it does from
// now on reaches the server, its Lease stays until it expires.
func (e *e2e) kill(id string) {
	r := e.replicas[id]
	r.cut.Store(true)
	r.cancel()
	<-r.done
	e.live = slices.DeleteFunc(e.live, func(s string) bool { return s == id })
}

// assignment returns the slots' owners among the current live members.
func (e *e2e) assignment() sharding.Assignment { return sharding.Assign(e.live, e2eSlots) }

// waitOwnership waits until every live replica works on exactly its
// assigned slots and returns how long that took.
func (e *e2e) waitOwnership(ctx context.Context, since time.Time) time.Duration {
	e.t.Helper()
	a := e.assignment()
	for {
		done := true
		for _, id := range e.live {
			if !slices.Equal(e.replicas[id].ctrl.Member().Status().Active, a.SlotsOf(id)) {
				done = false
			}
		}
		if done {
			return time.Since(since)
		}
		select {
		case <-ctx.Done():
			for _, id := range e.live {
				e.t.Logf("%s: %+v, assigned %v", id, e.replicas[id].ctrl.Member().Status(), a.SlotsOf(id))
			}
			e.t.Fatalf("ownership did not converge: %v", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitStamped waits until every object carries the stamp of its owner
// under the current assignment and returns how long that took.
func (e *e2e) waitStamped(ctx context.Context, cs kubernetes.Interface, since time.Time) time.Duration {
	e.t.Helper()
	a := e.assignment()
	for {
		list, err := cs.CoreV1().ConfigMaps(e.ns).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		wrong := -1
		if err == nil {
			wrong = 0
			for i := range list.Items {
				cm := &list.Items[i]
				if cm.Annotations[ownerAnn] != a.Owners[sharding.SlotOf(sharding.Hash(string(cm.UID)), e2eSlots)] {
					wrong++
				}
			}
			if len(list.Items) != e.n {
				e.t.Fatalf("%d ConfigMaps, want %d", len(list.Items), e.n)
			}
		}
		if wrong == 0 {
			return time.Since(since)
		}
		select {
		case <-ctx.Done():
			e.t.Fatalf("objects not stamped by their owners (%d wrong, list error %v): %v", wrong, err, ctx.Err())
		case <-time.After(time.Second):
		}
	}
}

// checkShares checks each live replica's cache against its share and
// reports the watch events it received.
func (e *e2e) checkShares(phase string) {
	e.t.Helper()
	third := float64(e.n) / float64(len(e.live))
	for _, id := range e.live {
		r := e.replicas[id]
		idx := r.ctrl.Indexer()
		if idx == nil {
			e.t.Errorf("%s %s: no cache", phase, id)
			continue
		}
		held := len(idx.ListKeys())
		if dev := (float64(held) - third) / third; dev > 0.2 || dev < -0.2 {
			e.t.Errorf("%s %s: cache holds %d objects, want %.0f within 20%%", phase, id, held, third)
		}
		active := r.ctrl.Member().Status().Active
		for _, obj := range idx.List() {
			cm := obj.(*corev1.ConfigMap)
			if slot := sharding.SlotOf(sharding.Hash(string(cm.UID)), e2eSlots); !slices.Contains(active, slot) {
				e.t.Errorf("%s %s: cache holds %s of slot %d, not one of its slots", phase, id, cm.Name, slot)
				break
			}
		}
		if got := r.ctrl.Mode(); got != e.mode {
			e.t.Errorf("%s %s: mode %v, want %v", phase, id, got, e.mode)
		}
		e.t.Logf("%s %s: %d objects cached (a share is %.0f), %d watch events received, %d outside its selector",
			phase, id, held, third, r.events.Load(), r.foreign.Load())
		if e.mode == sharding.ModeServer && r.foreign.Load() != 0 {
			e.t.Errorf("%s %s: the server sent %d events outside the replica's selector", phase, id, r.foreign.Load())
		}
		if e.mode == sharding.ModeClient && r.foreign.Load() == 0 {
			e.t.Errorf("%s %s: fallback replica received no foreign events: the server filtered after all?", phase, id)
		}
	}
}

func runE2E(t *testing.T, env *testenv.Env, mode sharding.Mode) {
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	e := &e2e{t: t, env: env, ns: env.Namespace(t), rec: newRecorder(), mode: mode, n: e2eObjects(t), replicas: map[string]*replica{}}
	cfg := env.AdminConfig()
	cfg.QPS, cfg.Burst = 2000, 4000
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, id := range slices.Clone(e.live) {
			e.kill(id)
		}
	})

	began := time.Now()
	createConfigMaps(ctx, t, cs, e.ns, "obj", e.n, 24, nil)
	t.Logf("created %d ConfigMaps in %v", e.n, time.Since(began).Round(time.Millisecond))

	// Phase 1: three replicas.
	began = time.Now()
	for i := range 3 {
		e.start(ctx, fmt.Sprintf("replica-%d", i))
	}
	phaseCtx, phaseCancel := context.WithTimeout(ctx, phaseTimeout)
	own := e.waitOwnership(phaseCtx, began)
	stamped := e.waitStamped(phaseCtx, cs, began)
	phaseCancel()
	t.Logf("start: slots assigned after %v, every object stamped by its owner after %v", own.Round(time.Millisecond), stamped.Round(time.Millisecond))
	e.checkShares("start")

	// Phase 2: kill replica-1 without release.
	killed := e.rec.now()
	began = time.Now()
	e.kill("replica-1")
	phaseCtx, phaseCancel = context.WithTimeout(ctx, phaseTimeout)
	own = e.waitOwnership(phaseCtx, began)
	stamped = e.waitStamped(phaseCtx, cs, began)
	phaseCancel()
	unowned := sharding.MemberConfig{LeaseDuration: e2eLease, RetryPeriod: e2eRetry}.UnownedBound()
	t.Logf("kill: slots re-assigned after %v (bound %v + %v slack), every object stamped by its new owner after %v",
		own.Round(time.Millisecond), unowned, boundSlack, stamped.Round(time.Millisecond))
	if own > unowned+boundSlack {
		t.Errorf("ownership converged %v after the kill, bound %v + %v", own, unowned, boundSlack)
	}
	_, gap := e.rec.slotOverlapsAndGaps(killed)
	if gap > unowned+boundSlack {
		t.Errorf("a slot stayed unowned %v after the kill, bound %v + %v", gap, unowned, boundSlack)
	}
	t.Logf("kill: longest unowned slot %v", gap.Round(time.Millisecond))

	// Phase 3: add replica-3.
	added := e.rec.now()
	began = time.Now()
	e.start(ctx, "replica-3")
	phaseCtx, phaseCancel = context.WithTimeout(ctx, phaseTimeout)
	own = e.waitOwnership(phaseCtx, began)
	stamped = e.waitStamped(phaseCtx, cs, began)
	phaseCancel()
	planned := 4*e2eRetry + boundSlack
	_, gap = e.rec.slotOverlapsAndGaps(added)
	t.Logf("add: slots re-assigned after %v, every object stamped by its owner after %v, longest unowned slot %v (bound %v)",
		own.Round(time.Millisecond), stamped.Round(time.Millisecond), gap.Round(time.Millisecond), planned)
	if gap > planned {
		t.Errorf("a slot stayed unowned %v during the join, bound %v", gap, planned)
	}
	e.checkShares("add")

	// The checker.
	for _, id := range slices.Clone(e.live) {
		e.kill(id)
	}
	overlaps, _ := e.rec.slotOverlapsAndGaps(0)
	overlaps = append(overlaps, e.rec.overlaps()...)
	for i, o := range overlaps {
		if i == 10 {
			t.Errorf("... %d overlaps in all", len(overlaps))
			break
		}
		t.Error(o)
	}
	e.rec.mu.Lock()
	total, objects := 0, len(e.rec.reconciles)
	for _, ivs := range e.rec.reconciles {
		total += len(ivs)
	}
	e.rec.mu.Unlock()
	if objects != e.n {
		t.Errorf("%d objects reconciled, want %d", objects, e.n)
	}
	t.Logf("checker: %d reconciles of %d objects, %d overlapping", total, objects, len(overlaps))
}

// TestShardedController runs the end-to-end test on the server's sharded
// list and watch.
func TestShardedController(t *testing.T) {
	framework.DumpLogsOnFailure(t, controlPlane)
	runE2E(t, controlPlane, sharding.ModeServer)
}

// TestShardedControllerFallback runs it against a kube-apiserver without
// the feature gate: the replicas detect that the server ignores the
// selector and filter on their side.
func TestShardedControllerFallback(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	env, err := testenv.Start(ctx, testenv.Options{
		FeatureGates:             map[string]bool{shardingGate: false},
		DisableControllerManager: true,
	})
	if err != nil {
		t.Fatalf("starting a control plane without %s: %v", shardingGate, err)
	}
	t.Cleanup(env.Stop)
	env.LogsOnFailure(t)
	runE2E(t, env, sharding.ModeClient)
}
