package informers

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/tools/leaderelection"
	"github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
)

// Election timing of the soak: LeaseDuration - RenewDeadline is the margin
// that keeps two leaders apart; it is wide because requests are delayed by
// the fault proxy and the machine is shared.
const (
	soakLeaseDuration = 6 * time.Second
	soakRenewDeadline = 4 * time.Second
	soakRetryPeriod   = 500 * time.Millisecond
)

// term is one stretch of leadership as a candidate's callbacks saw it.
type term struct {
	who        string
	start, end time.Time // end is zero while the term lasts
}

// termLog collects the terms of all candidates.
type termLog struct {
	mu    sync.Mutex // guards terms
	terms []*term
}

func (l *termLog) begin(who string) *term {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := &term{who: who, start: time.Now()}
	l.terms = append(l.terms, t)
	return t
}

func (l *termLog) finish(t *term) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	t.end = now
}

// snapshot returns copies of the terms sorted by start; open terms end at
// now.
func (l *termLog) snapshot() []term {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]term, 0, len(l.terms))
	for _, t := range l.terms {
		c := *t
		if c.end.IsZero() {
			c.end = now
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b term) int { return a.start.Compare(b.start) })
	return out
}

// overlaps lists pairs of terms of different candidates that overlap.
func overlaps(terms []term) []string {
	var out []string
	for i := range terms {
		for j := i + 1; j < len(terms) && terms[j].start.Before(terms[i].end); j++ {
			if terms[i].who != terms[j].who {
				out = append(out, fmt.Sprintf("%s led %s..%s and %s from %s",
					terms[i].who, terms[i].start.Format("15:04:05.000"), terms[i].end.Format("15:04:05.000"),
					terms[j].who, terms[j].start.Format("15:04:05.000")))
			}
		}
	}
	return out
}

// runCandidates runs n leader-election candidates for the Lease ns/name,
// each with its own client from cfg, until ctx ends; a candidate that
// loses its term stands again. It returns a function that waits for them.
func runCandidates(ctx context.Context, cfg *rest.Config, ns, name string, n int, log *termLog) (func(), error) {
	var wg sync.WaitGroup
	for i := range n {
		cs, err := kubernetes.NewForConfig(rest.CopyConfig(cfg))
		if err != nil {
			return nil, err
		}
		id := fmt.Sprintf("candidate-%d", i)
		lock := &resourcelock.LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Namespace: ns, Name: name},
			Client:     cs.CoordinationV1(),
			LockConfig: resourcelock.ResourceLockConfig{Identity: id},
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				// OnStartedLeading runs on a goroutine of the elector's; the
				// loop waits for it after Run when it began, so that a term
				// is closed before the candidate stands again. (If Run lost
				// the lease before that goroutine was scheduled, the term
				// it then records is empty: its context is already done.)
				var led atomic.Bool
				termDone := make(chan struct{})
				le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
					Lock:            lock,
					LeaseDuration:   soakLeaseDuration,
					RenewDeadline:   soakRenewDeadline,
					RetryPeriod:     soakRetryPeriod,
					ReleaseOnCancel: false,
					Name:            "soak",
					Callbacks: leaderelection.LeaderCallbacks{
						OnStartedLeading: func(leadCtx context.Context) {
							led.Store(true)
							defer close(termDone)
							t := log.begin(id)
							<-leadCtx.Done()
							log.finish(t)
						},
						OnStoppedLeading: func() {},
					},
				})
				if err != nil {
					panic(err) // a bad configuration is a bug in this file
				}
				le.Run(ctx)
				if led.Load() {
					<-termDone
				}
			}
		}()
	}
	return wg.Wait, nil
}

// leaseSample is the Lease holder read between sent and received.
type leaseSample struct {
	sent, received time.Time
	holder         string
}

// watchLease reads the Lease every 100ms through cs (not through the
// proxy) until ctx ends, and returns the samples.
func watchLease(ctx context.Context, cs kubernetes.Interface, ns, name string) []leaseSample {
	var samples []leaseSample
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		sent := time.Now()
		lease, err := cs.CoordinationV1().Leases(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil && lease.Spec.HolderIdentity != nil {
			samples = append(samples, leaseSample{sent: sent, received: time.Now(), holder: *lease.Spec.HolderIdentity})
		}
		select {
		case <-ctx.Done():
			return samples
		case <-tick.C:
		}
	}
}

// leaseContradictions lists samples taken wholly inside a term whose
// holder is not the term's candidate: another candidate held the Lease
// while this one believed it led.
func leaseContradictions(terms []term, samples []leaseSample) []string {
	var out []string
	for _, s := range samples {
		for _, t := range terms {
			if s.sent.After(t.start) && s.received.Before(t.end) && s.holder != t.who && s.holder != "" {
				out = append(out, fmt.Sprintf("Lease held by %s at %s while %s led (%s..%s)",
					s.holder, s.sent.Format("15:04:05.000"), t.who, t.start.Format("15:04:05.000"), t.end.Format("15:04:05.000")))
			}
		}
	}
	return out
}
