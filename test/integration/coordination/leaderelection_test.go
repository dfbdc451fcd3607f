package coordination

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedcorev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/tools/leaderelection"
	"github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
	"github.com/kubeclient/client-go/tools/record"
)

// Election timing. RetryPeriod is short so that a released Lease changes
// hands well within a second: a follower retries every RetryPeriod plus a
// random extra of up to JitterFactor (1.2) times RetryPeriod, i.e. at most
// every 440ms.
const (
	leaseDuration = 4 * time.Second
	renewDeadline = 3 * time.Second
	retryPeriod   = 200 * time.Millisecond

	// callbackLag is how far two leadership terms may overlap as the
	// observer sees them. The library starts OnStartedLeading on a goroutine
	// of its own and the observer stamps the end of a term when that
	// goroutine sees its context end, so both stamps trail the real change
	// by scheduling delay (seconds of margin are designed in everywhere
	// else; this only absorbs the goroutine wake-ups, which on a shared
	// 2-core machine under -race can take tens of milliseconds).
	callbackLag = 100 * time.Millisecond

	// requestSlack covers the API round trips inside each bound (a Get
	// and an Update per attempt; a few milliseconds when idle, more on a
	// shared machine under -race).
	requestSlack = 600 * time.Millisecond

	// handOverBound is the limit, measured from cancelling a leader with
	// ReleaseOnCancel to its successor's OnStartedLeading. Release takes a
	// Get and an Update; the released Lease names no holder, so a follower
	// takes it at its next attempt, at most maxRetryWait later.
	handOverBound = time.Second

	leaseName = "coordination-test"
)

// maxRetryWait is the longest wait between two attempts of a follower.
var maxRetryWait = retryPeriod + time.Duration(math.Round(leaderelection.JitterFactor*float64(retryPeriod)))

// Take-over bounds after a leader stops without releasing, measured from
// the moment it stops. Let w be its last successful renewal; it renews
// every RetryPeriod, so w >= stop - RetryPeriod - one request. A follower
// judges expiry from when it first saw that renewal, which is at or after w
// and at most maxRetryWait (+ a request) after it, and it schedules an
// attempt for the moment LeaseDuration has passed since (it does not wait
// for its next jittered retry). Hence
//
//	LeaseDuration - RetryPeriod - slack <= take-over <= LeaseDuration + maxRetryWait + slack,
//
// i.e. 3.2s..5.04s here. The lower bound fails if the Lease was released or
// stolen early; the upper one if followers do not take an expired Lease
// promptly.
var (
	takeOverMin = leaseDuration - retryPeriod - requestSlack
	takeOverMax = leaseDuration + maxRetryWait + requestSlack
)

// errPartitioned is what a cut-off elector's transport returns.
var errPartitioned = errors.New("coordination test: elector is cut off from the API server")

// roundTripperFunc adapts a function to http.RoundTripper.
type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// term is one elector's leadership as its callbacks report it: from
// OnStartedLeading to the end of the context OnStartedLeading was given.
type term struct {
	identity   string
	start, end time.Time // end is zero while the term lasts
}

// leaseState is one version of the Lease as the observer's watch saw it.
type leaseState struct {
	holder          string
	durationSeconds int32
	transitions     int32
}

// observer collects what the electors' callbacks and a watch on the Lease
// report. All fields are guarded by mu; started receives the identity of
// every new leader.
type observer struct {
	mu        sync.Mutex
	terms     []*term
	stopped   map[string][]time.Time // OnStoppedLeading calls per elector
	reported  map[string][]string    // OnNewLeader arguments per elector
	leases    []leaseState
	watchErrs []string
	started   chan *term
}

// newObserver returns an observer that has seen nothing yet.
func newObserver() *observer {
	return &observer{
		stopped:  map[string][]time.Time{},
		reported: map[string][]string{},
		started:  make(chan *term, 16),
	}
}

// startedLeading is the body of every elector's OnStartedLeading: it opens
// a term and closes it when leadership ends.
func (o *observer) startedLeading(ctx context.Context, identity string) {
	tm := &term{identity: identity, start: time.Now()}
	o.mu.Lock()
	o.terms = append(o.terms, tm)
	o.mu.Unlock()
	select {
	case o.started <- &term{identity: identity, start: tm.start}:
	default: // more leaders than the test waits for; checkTerms reports it
	}
	<-ctx.Done()
	o.mu.Lock()
	tm.end = time.Now()
	o.mu.Unlock()
}

// stoppedLeading is the body of every elector's OnStoppedLeading.
func (o *observer) stoppedLeading(identity string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stopped[identity] = append(o.stopped[identity], time.Now())
}

// newLeader is the body of elector's OnNewLeader.
func (o *observer) newLeader(elector, leader string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.reported[elector] = append(o.reported[elector], leader)
}

// watchLease records every version of the Lease until ctx ends. The watch
// is open when watchLease returns, so the Lease's creation is seen.
func (o *observer) watchLease(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string) {
	t.Helper()
	w, err := cs.CoordinationV1().Leases(ns).Watch(ctx, metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("metadata.name", leaseName).String(),
	})
	if err != nil {
		t.Fatalf("watching Lease %s/%s: %v", ns, leaseName, err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			lease, ok := ev.Object.(*coordinationv1.Lease)
			o.mu.Lock()
			switch {
			case ev.Type == watch.Error:
				o.watchErrs = append(o.watchErrs, fmt.Sprintf("%v", ev.Object))
			case !ok:
				o.watchErrs = append(o.watchErrs, fmt.Sprintf("%s event with a %T", ev.Type, ev.Object))
			default:
				o.leases = append(o.leases, leaseState{
					holder:          deref(lease.Spec.HolderIdentity),
					durationSeconds: deref(lease.Spec.LeaseDurationSeconds),
					transitions:     deref(lease.Spec.LeaseTransitions),
				})
			}
			o.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		w.Stop()
		<-done
	})
}

// deref returns *p, or the zero value when p is nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// nextLeader waits for the next OnStartedLeading.
func (o *observer) nextLeader(ctx context.Context, t *testing.T, timeout time.Duration) *term {
	t.Helper()
	select {
	case tm := <-o.started:
		return tm
	case <-time.After(timeout):
		t.Fatalf("no elector started leading within %v", timeout)
	case <-ctx.Done():
		t.Fatalf("waiting for a leader: %v", ctx.Err())
	}
	return nil
}

// waitReported waits until every one of electors has passed leader to
// OnNewLeader. OnNewLeader runs on goroutines of its own, so only the set
// of reported identities is compared, not their order.
func (o *observer) waitReported(ctx context.Context, t *testing.T, electors []string, leader string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, waitTimeout, true, func(context.Context) (bool, error) {
		o.mu.Lock()
		defer o.mu.Unlock()
		for _, e := range electors {
			if !slices.Contains(o.reported[e], leader) {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		o.mu.Lock()
		defer o.mu.Unlock()
		t.Fatalf("not every elector of %v reported %s as the new leader: %v (reported: %v)", electors, leader, err, o.reported)
	}
}

// candidate is one elector with its own clientset, whose transport can be
// cut off from the server.
type candidate struct {
	identity    string
	partitioned atomic.Bool
	cancel      context.CancelFunc
	done        chan struct{} // closed when Run has returned
}

// startCandidate starts an elector for the Lease in ns. It stops when ctx
// ends, when cancel is called, or (being leader) when it loses the Lease.
func startCandidate(ctx context.Context, t *testing.T, ns, identity string, releaseOnCancel bool, recorder record.EventRecorder, o *observer) *candidate {
	t.Helper()
	c := &candidate{identity: identity, done: make(chan struct{})}
	cfg := rest.AddUserAgent(controlPlane.AdminConfig(), "coordination-test/"+identity)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			if c.partitioned.Load() {
				return nil, errPartitioned
			}
			return rt.RoundTrip(req)
		})
	})
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: ns, Name: leaseName},
		Client:     newClientset(t, cfg).CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: identity, EventRecorder: recorder},
	}
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   leaseDuration,
		RenewDeadline:   renewDeadline,
		RetryPeriod:     retryPeriod,
		ReleaseOnCancel: releaseOnCancel,
		Name:            leaseName,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { o.startedLeading(ctx, identity) },
			OnStoppedLeading: func() { o.stoppedLeading(identity) },
			OnNewLeader:      func(leader string) { o.newLeader(identity, leader) },
		},
	})
	if err != nil {
		t.Fatalf("NewLeaderElector(%s): %v", identity, err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	c.cancel = cancel
	go func() {
		defer close(c.done)
		le.Run(runCtx)
	}()
	t.Cleanup(func() {
		cancel()
		c.wait(t, waitTimeout)
	})
	return c
}

// wait waits up to timeout for the elector's Run to return.
func (c *candidate) wait(t *testing.T, timeout time.Duration) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(timeout):
		t.Errorf("Run of %s did not return within %v", c.identity, timeout)
	}
}

// stop cancels the elector and waits for Run to return.
func (c *candidate) stop(t *testing.T) {
	t.Helper()
	c.cancel()
	c.wait(t, waitTimeout)
}

// TestLeaderElectionFailover runs three electors on one Lease, lets one
// lead, takes that leader away and checks that exactly one other elector
// takes over, in time, with the Lease, OnNewLeader and the leadership events
// on the Lease agreeing with the electors' callbacks throughout.
func TestLeaderElectionFailover(t *testing.T) {
	tests := []struct {
		name string
		// releaseOnCancel is set on every elector.
		releaseOnCancel bool
		// partition cuts the leader's transport off instead of cancelling
		// its context: it keeps trying to renew until RenewDeadline.
		partition bool
		// minTakeOver and maxTakeOver bound the time from taking the
		// leader away to its successor's OnStartedLeading.
		minTakeOver, maxTakeOver time.Duration
	}{
		{name: "cancel with ReleaseOnCancel hands over", releaseOnCancel: true, maxTakeOver: handOverBound},
		{name: "cancel without release is a crash", minTakeOver: takeOverMin, maxTakeOver: takeOverMax},
		{name: "leader cut off from the server", partition: true, minTakeOver: takeOverMin, maxTakeOver: takeOverMax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			framework.DumpLogsOnFailure(t, controlPlane)
			ctx := testContext(t)
			ns := controlPlane.Namespace(t)
			cs := newClientset(t, nil)
			o := newObserver()
			o.watchLease(ctx, t, cs, ns)

			broadcaster := record.NewBroadcaster()
			t.Cleanup(broadcaster.Shutdown)
			broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: cs.CoreV1().Events("")})
			recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "coordination-test-election"})

			ids := []string{"elector-a", "elector-b", "elector-c"}
			candidates := map[string]*candidate{}
			for _, id := range ids {
				candidates[id] = startCandidate(ctx, t, ns, id, tt.releaseOnCancel, recorder, o)
			}

			first := o.nextLeader(ctx, t, waitTimeout)
			checkLease(ctx, t, cs, ns, first.identity, 0)
			o.waitReported(ctx, t, ids, first.identity)

			// Take the leader away.
			leader := candidates[first.identity]
			gone := time.Now()
			if tt.partition {
				leader.partitioned.Store(true)
			} else {
				leader.cancel()
			}
			second := o.nextLeader(ctx, t, tt.maxTakeOver+waitTimeout)
			took := second.start.Sub(gone)
			t.Logf("%s led first; %s took over %v after %s was taken away (allowed %v..%v)",
				first.identity, second.identity, took.Round(time.Millisecond), first.identity, tt.minTakeOver, tt.maxTakeOver)
			if second.identity == first.identity {
				t.Fatalf("%s, taken away, started leading again", first.identity)
			}
			if took < tt.minTakeOver || took > tt.maxTakeOver {
				t.Errorf("successor started leading %v after the leader was taken away, want within %v..%v", took, tt.minTakeOver, tt.maxTakeOver)
			}
			checkLease(ctx, t, cs, ns, second.identity, 1)
			leader.wait(t, renewDeadline+waitTimeout)
			var survivors []string
			for _, id := range ids {
				if id != first.identity {
					survivors = append(survivors, id)
				}
			}
			o.waitReported(ctx, t, survivors, second.identity)
			waitLeaderEvents(ctx, t, cs, ns,
				first.identity+" became leader",
				first.identity+" stopped leading",
				second.identity+" became leader")

			// Stop the follower before the successor so that nobody
			// takes the Lease over during shutdown.
			for _, id := range survivors {
				if id != second.identity {
					candidates[id].stop(t)
				}
			}
			candidates[second.identity].stop(t)

			o.checkTerms(ctx, t, []string{first.identity, second.identity})
			o.checkStopped(t, ids)
			o.checkReported(t, ids, first.identity, second.identity)
			o.checkLeaseHistory(ctx, t, first.identity, second.identity, tt.releaseOnCancel)
		})
	}
}

// checkLease reads the Lease and checks that it names holder, with the
// configured duration and transitions leader changes so far.
func checkLease(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, holder string, transitions int32) {
	t.Helper()
	lease, err := cs.CoordinationV1().Leases(ns).Get(ctx, leaseName, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("getting Lease: %v", err)
	}
	spec := lease.Spec
	if got := deref(spec.HolderIdentity); got != holder {
		t.Errorf("Lease holderIdentity = %q while %s leads", got, holder)
	}
	if got, want := deref(spec.LeaseDurationSeconds), int32(leaseDuration/time.Second); got != want {
		t.Errorf("Lease leaseDurationSeconds = %d, want %d", got, want)
	}
	if got := deref(spec.LeaseTransitions); got != transitions {
		t.Errorf("Lease leaseTransitions = %d, want %d", got, transitions)
	}
	if spec.AcquireTime == nil || spec.RenewTime == nil || spec.RenewTime.Before(spec.AcquireTime) {
		t.Errorf("Lease acquireTime %v, renewTime %v: want both set, renewal not before acquisition", spec.AcquireTime, spec.RenewTime)
	}
}

// waitLeaderEvents waits until core/v1 Events about the Lease with reason
// LeaderElection carry every one of messages; the LeaseLock records them
// through the electors' shared recorder.
func waitLeaderEvents(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, messages ...string) {
	t.Helper()
	var seen []string
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, waitTimeout, true, func(ctx context.Context) (bool, error) {
		list, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		seen = seen[:0]
		for _, ev := range list.Items {
			if ev.InvolvedObject.Kind == "Lease" && ev.InvolvedObject.Name == leaseName && ev.Reason == "LeaderElection" {
				seen = append(seen, ev.Message)
			}
		}
		for _, m := range messages {
			if !slices.Contains(seen, m) {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Errorf("waiting for LeaderElection events %q on the Lease: %v (seen %q)", messages, err, seen)
	}
}

// checkTerms waits for every term to end (all electors were stopped) and
// checks that the leaders were want, in order, and that no two terms
// overlapped by more than callbackLag.
func (o *observer) checkTerms(ctx context.Context, t *testing.T, want []string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, waitTimeout, true, func(context.Context) (bool, error) {
		o.mu.Lock()
		defer o.mu.Unlock()
		for _, tm := range o.terms {
			if tm.end.IsZero() {
				return false, nil
			}
		}
		return true, nil
	})
	o.mu.Lock()
	defer o.mu.Unlock()
	if err != nil {
		t.Fatalf("a leader's context was not cancelled after every elector stopped: %v", err)
	}
	terms := slices.Clone(o.terms)
	slices.SortFunc(terms, func(a, b *term) int { return a.start.Compare(b.start) })
	var got []string
	for _, tm := range terms {
		got = append(got, tm.identity)
	}
	if !slices.Equal(got, want) {
		t.Errorf("electors started leading in the order %v, want %v", got, want)
	}
	for i, a := range terms {
		for _, b := range terms[i+1:] {
			overlap := earlier(a.end, b.end).Sub(later(a.start, b.start))
			if overlap > callbackLag {
				t.Errorf("%s (%v..%v) and %s (%v..%v) led at the same time for %v, more than %v",
					a.identity, a.start.Format(time.StampMilli), a.end.Format(time.StampMilli),
					b.identity, b.start.Format(time.StampMilli), b.end.Format(time.StampMilli), overlap, callbackLag)
			}
		}
	}
	for _, tm := range terms {
		t.Logf("term of %s: %v..%v", tm.identity, tm.start.Format(time.StampMilli), tm.end.Format(time.StampMilli))
	}
}

// earlier returns the earlier of a and b.
func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// checkStopped checks that every elector's OnStoppedLeading ran exactly
// once, and for a leader not before its term ended.
func (o *observer) checkStopped(t *testing.T, ids []string) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, id := range ids {
		if n := len(o.stopped[id]); n != 1 {
			t.Errorf("OnStoppedLeading of %s ran %d times, want once", id, n)
			continue
		}
		for _, tm := range o.terms {
			if tm.identity == id && o.stopped[id][0].Before(tm.end.Add(-callbackLag)) {
				t.Errorf("OnStoppedLeading of %s ran at %v, before its term ended at %v",
					id, o.stopped[id][0].Format(time.StampMilli), tm.end.Format(time.StampMilli))
			}
		}
	}
}

// checkReported checks that every elector reported the first leader and
// that nobody reported an identity that never held the Lease.
func (o *observer) checkReported(t *testing.T, ids []string, leaders ...string) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, id := range ids {
		if !slices.Contains(o.reported[id], leaders[0]) {
			t.Errorf("%s never reported %s as leader (reported %q)", id, leaders[0], o.reported[id])
		}
		for _, r := range o.reported[id] {
			if r != "" && !slices.Contains(leaders, r) {
				t.Errorf("%s reported %q as leader, which never led", id, r)
			}
		}
	}
}

// checkLeaseHistory waits until the watch has seen the Lease name second,
// then checks the holders it went through: first, then second, with only a
// release (no holder, duration 1s) in between when released is set and
// nothing in between otherwise.
func (o *observer) checkLeaseHistory(ctx context.Context, t *testing.T, first, second string, released bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, waitTimeout, true, func(context.Context) (bool, error) {
		o.mu.Lock()
		defer o.mu.Unlock()
		return slices.ContainsFunc(o.leases, func(s leaseState) bool { return s.holder == second }), nil
	})
	o.mu.Lock()
	defer o.mu.Unlock()
	if err != nil {
		t.Fatalf("the Lease watch never saw %s hold the Lease: %v (saw %+v)", second, err, o.leases)
	}
	if len(o.watchErrs) > 0 {
		t.Errorf("Lease watch errors: %q", o.watchErrs)
	}
	var holders []string
	for _, s := range o.leases {
		if s.holder != "" && (len(holders) == 0 || holders[len(holders)-1] != s.holder) {
			holders = append(holders, s.holder)
		}
	}
	if want := []string{first, second}; !slices.Equal(holders, want) {
		t.Errorf("the Lease was held by %v in turn, want %v", holders, want)
	}
	lastFirst := slices.IndexFunc(o.leases, func(s leaseState) bool { return s.holder == second }) - 1
	firstSecond := lastFirst + 1
	for lastFirst >= 0 && o.leases[lastFirst].holder != first {
		lastFirst--
	}
	if lastFirst < 0 {
		t.Errorf("the Lease watch never saw %s hold the Lease before %s: %+v", first, second, o.leases)
		return
	}
	between := o.leases[lastFirst+1 : firstSecond]
	switch {
	case released && (len(between) != 1 || between[0].holder != "" || between[0].durationSeconds != 1):
		t.Errorf("between %s and %s the Lease went through %+v, want one release (no holder, leaseDurationSeconds 1)", first, second, between)
	case !released && len(between) != 0:
		t.Errorf("between %s and %s the Lease went through %+v, want a direct take-over", first, second, between)
	}
	if s := o.leases[firstSecond]; s.transitions != o.leases[lastFirst].transitions+1 || s.durationSeconds != int32(leaseDuration/time.Second) {
		t.Errorf("take-over by %s wrote %+v after %+v: want leaseTransitions one higher and leaseDurationSeconds %d",
			second, s, o.leases[lastFirst], leaseDuration/time.Second)
	}
}
