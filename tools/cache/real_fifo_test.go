package cache

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestRealFIFOScenarios runs write sequences against a RealFIFO and
// compares what Pop hands out: every delta, one at a time, in order.
func TestRealFIFOScenarios(t *testing.T) {
	tests := []struct {
		name   string
		opts   RealFIFOOptions
		writes func(f *RealFIFO) error
		want   []string
	}{
		{
			name: "every change is handed out, in order",
			opts: RealFIFOOptions{KnownObjects: knownPods()},
			writes: func(f *RealFIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Update(pod("ns", "a", "2", nil)),
					f.Add(pod("ns", "b", "3", nil)), f.Delete(pod("ns", "a", "4", nil)), f.Delete(pod("ns", "a", "4", nil)))
			},
			want: []string{"Added:a@1", "Updated:a@2", "Added:b@3", "Deleted:a@4", "Deleted:a@4"},
		},
		{
			name: "Replace queues deletions of queued and known objects, then the list",
			opts: RealFIFOOptions{KnownObjects: knownPods(pod("ns", "gone-known", "1", nil), pod("ns", "kept", "1", nil))},
			writes: func(f *RealFIFO) error {
				return errors.Join(f.Add(pod("ns", "gone-queued", "2", nil)), f.Update(pod("ns", "gone-queued", "3", nil)),
					f.Replace([]interface{}{pod("ns", "kept", "4", nil)}, "4"))
			},
			want: []string{
				"Added:gone-queued@2", "Updated:gone-queued@3",
				"Deleted:tombstone(ns/gone-queued,gone-queued@3)",
				"Deleted:tombstone(ns/gone-known,gone-known@1)",
				"Replaced:kept@4",
			},
		},
		{
			name: "Replace adds nothing to a queued deletion",
			opts: RealFIFOOptions{KnownObjects: knownPods(pod("ns", "a", "1", nil))},
			writes: func(f *RealFIFO) error {
				return errors.Join(f.Delete(pod("ns", "a", "2", nil)), f.Replace(nil, "3"))
			},
			want: []string{"Deleted:a@2"},
		},
		{
			name:   "a known object that vanished during Replace gets an empty tombstone",
			opts:   RealFIFOOptions{KnownObjects: &fakeKnownObjects{keys: []string{"ns/missing", "ns/failing"}, failing: map[string]bool{"ns/failing": true}}},
			writes: func(f *RealFIFO) error { return f.Replace(nil, "1") },
			want:   []string{"Deleted:tombstone(ns/missing,nil)", "Deleted:tombstone(ns/failing,nil)"},
		},
		{
			name: "Resync replays known objects that have nothing queued",
			opts: RealFIFOOptions{KnownObjects: knownPods(pod("ns", "a", "1", nil), pod("ns", "b", "1", nil))},
			writes: func(f *RealFIFO) error {
				return errors.Join(f.Update(pod("ns", "a", "2", nil)), f.Resync())
			},
			want: []string{"Updated:a@2", "Sync:b@1"},
		},
		{
			name:   "Resync skips known keys whose lookup fails or finds nothing",
			opts:   RealFIFOOptions{KnownObjects: &fakeKnownObjects{keys: []string{"ns/missing", "ns/failing"}, failing: map[string]bool{"ns/failing": true}}},
			writes: func(f *RealFIFO) error { return f.Resync() },
		},
		{
			name: "atomic: Replace, Resync and Bookmark are one delta each",
			opts: RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true},
			writes: func(f *RealFIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)),
					f.Replace([]interface{}{pod("ns", "b", "2", nil), pod("ns", "c", "3", nil)}, "3"),
					f.Resync(), f.Bookmark("4"))
			},
			want: []string{"Added:a@1", "ReplacedAll:cache.ReplacedAllInfo", "SyncAll:cache.SyncAllInfo", "Bookmark:cache.BookmarkInfo"},
		},
		{
			name:   "Bookmark queues nothing unless asked to",
			opts:   RealFIFOOptions{AtomicEvents: true},
			writes: func(f *RealFIFO) error { return f.Bookmark("4") },
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := NewRealFIFOWithOptions(tc.opts)
			if err := tc.writes(f); err != nil {
				t.Fatalf("writes: %v", err)
			}
			got := drainDeltas(t, f)
			if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("pops:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

func TestRealFIFOAtomicPayloads(t *testing.T) {
	calls := 0
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true, Transformer: labelTransform(&calls)})
	_ = f.Replace([]interface{}{pod("ns", "a", "1", nil), pod("ns", "b", "2", nil)}, "7")
	_ = f.Bookmark("9")
	d, initial := popDeltas(t, f)
	info, ok := d[0].Object.(ReplacedAllInfo)
	if !ok || info.ResourceVersion != "7" || len(info.Objects) != 2 || !initial {
		t.Fatalf("ReplacedAll = %+v initial=%v", d, initial)
	}
	for _, obj := range info.Objects {
		if !isTransformed(obj) {
			t.Error("listed object not transformed")
		}
	}
	if !f.HasSynced() {
		t.Error("not synced after the ReplacedAll was processed")
	}
	if d, _ := popDeltas(t, f); d[0].Object.(BookmarkInfo).ResourceVersion != "9" {
		t.Errorf("bookmark = %+v", d[0])
	}
	bad := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Transformer: func(interface{}) (interface{}, error) { return nil, errors.New("bad") }})
	if err := bad.Replace([]interface{}{pod("ns", "a", "1", nil)}, "1"); err == nil || pendingDeltas(bad) != 0 {
		t.Errorf("failing transform: err %v, %d queued", err, pendingDeltas(bad))
	}
}

func TestRealFIFOInitialSync(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: knownPods(pod("ns", "gone", "1", nil))})
	if f.HasSynced() {
		t.Fatal("synced before anything happened")
	}
	// One deletion and two listed objects make three initial deltas.
	_ = f.Replace([]interface{}{pod("ns", "a", "1", nil), pod("ns", "b", "2", nil)}, "2")
	_ = f.Add(pod("ns", "c", "3", nil))
	for i, wantInitial := range []bool{true, true, true, false} {
		if _, initial := popDeltas(t, f); initial != wantInitial {
			t.Errorf("pop %d: isInInitialList = %v", i, initial)
		}
	}
	if !f.HasSynced() || !IsDone(f.HasSyncedChecker()) {
		t.Error("not synced after the initial deltas were popped")
	}
	g := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true})
	_ = g.Add(pod("ns", "a", "1", nil))
	if !g.HasSynced() {
		t.Error("a queue first written by Add is synced")
	}
}

func TestRealFIFOOptionValidation(t *testing.T) {
	tests := map[string]RealFIFOOptions{
		"atomic with known objects":            {AtomicEvents: true, KnownObjects: NewStore(MetaNamespaceKeyFunc)},
		"unlock while processing, not atomic":  {UnlockWhileProcessing: true},
		"bookmarks without atomic events":      {EmitDeltaTypeBookmark: true},
		"bookmarks and unlock without atomics": {EmitDeltaTypeBookmark: true, UnlockWhileProcessing: true},
	}
	for name, opts := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: invalid options accepted", name)
				}
			}()
			NewRealFIFOWithOptions(opts)
		}()
	}
}

func TestRealFIFONames(t *testing.T) {
	name, err := NewInformerName("real-fifo-test")
	if err != nil {
		t.Fatal(err)
	}
	defer name.Release()
	tests := []struct {
		opts RealFIFOOptions
		want string
	}{
		{RealFIFOOptions{}, "RealFIFO"},
		{RealFIFOOptions{Name: "mine"}, "mine"},
		{RealFIFOOptions{Name: "mine", Identifier: name.WithResource(schema.GroupVersionResource{Version: "v1", Resource: "pods"})}, "real-fifo-test"},
	}
	for _, tc := range tests {
		if got := NewRealFIFOWithOptions(tc.opts).Name(); got != tc.want {
			t.Errorf("Name() = %q, want %q", got, tc.want)
		}
	}
}

func TestRealFIFOPopBatch(t *testing.T) {
	tests := []struct {
		name string
		// writes fill the queue; initial items come from a Replace first.
		initial []interface{}
		writes  func(f *RealFIFO)
		want    []string // one entry per PopBatch: "batch(...)" or "single(...)"
	}{
		{
			name: "a batch ends before a second delta of the same object",
			writes: func(f *RealFIFO) {
				_ = f.Add(pod("ns", "a", "1", nil))
				_ = f.Add(pod("ns", "b", "2", nil))
				_ = f.Update(pod("ns", "a", "3", nil))
			},
			want: []string{"batch(Added:a@1 Added:b@2)", "single(Updated:a@3)"},
		},
		{
			name: "summaries are never batched",
			writes: func(f *RealFIFO) {
				_ = f.Add(pod("ns", "a", "1", nil))
				_ = f.Add(pod("ns", "b", "2", nil))
				_ = f.Bookmark("3")
				_ = f.Add(pod("ns", "c", "4", nil))
			},
			want: []string{"batch(Added:a@1 Added:b@2)", "single(Bookmark:cache.BookmarkInfo)", "single(Added:c@4)"},
		},
		{
			name:    "initial deltas are not mixed with later ones",
			initial: []interface{}{pod("ns", "a", "1", nil), pod("ns", "b", "2", nil)},
			writes: func(f *RealFIFO) {
				_ = f.Add(pod("ns", "c", "3", nil))
				_ = f.Add(pod("ns", "d", "4", nil))
			},
			want: []string{"batch(Replaced:a@1 Replaced:b@2)", "batch(Added:c@3 Added:d@4)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: knownPods()})
			if tc.initial != nil {
				_ = f.Replace(tc.initial, "1")
			}
			f.emitBookmarks = true // bookmarks in a non-atomic queue, for the test only
			tc.writes(f)
			var got []string
			batch := func(d []Delta, _ bool) error { got = append(got, "batch("+describeDeltas(d)+")"); return nil }
			single := func(obj interface{}, _ bool) error {
				got = append(got, "single("+describeDeltas(obj.(Deltas))+")")
				return nil
			}
			for pendingDeltas(f) > 0 {
				if err := f.PopBatch(batch, single); err != nil {
					t.Fatal(err)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("pops:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

func TestRealFIFOPopBatchLimitAndErrors(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true})
	f.batchSize = 2
	for _, name := range []string{"a", "b", "c"} {
		_ = f.Add(pod("ns", name, "1", nil))
	}
	boom := errors.New("boom")
	var sizes []int
	err := f.PopBatch(func(d []Delta, _ bool) error { sizes = append(sizes, len(d)); return boom }, nil)
	if err != boom || len(sizes) != 1 || sizes[0] != 2 {
		t.Errorf("PopBatch = %v, batch sizes %v", err, sizes)
	}
	f.Close()
	_ = f.PopBatch(nil, func(interface{}, bool) error { return nil })
	if err := f.PopBatch(nil, nil); err != ErrFIFOClosed {
		t.Errorf("PopBatch on a drained closed queue = %v", err)
	}
}

func TestRealFIFOUnlockWhileProcessingAllowsProducers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true})
		_ = f.Add(pod("ns", "a", "1", nil))
		added := make(chan struct{})
		_, err := f.Pop(func(interface{}, bool) error {
			// A producer must not be blocked by a long-running consumer.
			go func() {
				_ = f.Add(pod("ns", "b", "2", nil))
				close(added)
			}()
			select {
			case <-added:
			case <-time.After(10 * time.Second):
				t.Error("Add blocked while the consumer was processing")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestRealFIFOTransformer(t *testing.T) {
	calls := 0
	known := knownPods(pod("ns", "k", "1", nil))
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: known, Transformer: labelTransform(&calls)})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Replace([]interface{}{pod("ns", "a", "2", nil)}, "2") // k vanishes
	_ = f.Resync()                                              // everything is queued: nothing
	if calls != 2 {
		t.Errorf("transformer called %d times, want 2", calls)
	}
	for _, d := range drainDeltas(t, f) {
		if strings.Contains(d, "Sync") {
			t.Errorf("unexpected %s", d)
		}
	}
	_ = f.Resync()
	if d, _ := popDeltas(t, f); d[0].Type != Sync || isTransformed(d[0].Object) || calls != 2 {
		t.Errorf("resync delta %v transformed (calls %d)", d, calls)
	}
}

// TestDeltaStreamReusesItsBuffer drives the stream's buffer through its
// slide and release paths and checks that the order survives.
func TestDeltaStreamReusesItsBuffer(t *testing.T) {
	s := deltaStream{}
	next, popped := 0, 0
	push := func(n int) {
		for i := 0; i < n; i++ {
			s.append(Delta{Type: Added, Object: next})
			next++
		}
	}
	pop := func(n int) {
		for i := 0; i < n; i++ {
			if got := s.shift().Object.(int); got != popped {
				t.Fatalf("shift = %d, want %d", got, popped)
			}
			popped++
		}
	}
	push(128)
	pop(100)  // a dead prefix of 100 before 28 live items
	push(200) // the buffer is full: the live tail slides down
	if s.head != 0 {
		t.Errorf("dead prefix kept: head %d", s.head)
	}
	pop(s.pending())
	push(maxRetainedFIFOCapacity + 1)
	pop(s.pending())
	if s.items != nil {
		t.Errorf("a drained buffer of %d was kept", cap(s.items))
	}
}

func TestNewRealFIFO(t *testing.T) {
	calls := 0
	f := NewRealFIFO(MetaNamespaceKeyFunc, knownPods(pod("ns", "k", "1", nil)), labelTransform(&calls))
	_ = f.Replace(nil, "1")
	if got := drainDeltas(t, f); len(got) != 1 || got[0] != "Deleted:tombstone(ns/k,k@1)" {
		t.Errorf("NewRealFIFO is not a non-atomic queue over its known objects: %q", got)
	}
}

// recordingMetrics counts queue gauge updates.
type recordingMetrics struct {
	mu     sync.Mutex
	queued []float64
}

func (m *recordingMetrics) NewQueuedItemMetric(InformerNameAndResource) GaugeMetric {
	return gaugeFunc(func(v float64) { m.mu.Lock(); m.queued = append(m.queued, v); m.mu.Unlock() })
}

func (m *recordingMetrics) NewProcessingLatencyMetric(InformerNameAndResource) HistogramMetric {
	return gaugeFunc(func(float64) {})
}

func (m *recordingMetrics) NewStoreResourceVersionMetric(InformerNameAndResource) GaugeMetric {
	return gaugeFunc(func(float64) {})
}

func TestRealFIFOMetrics(t *testing.T) {
	ResetInformerNamesForTesting()
	defer ResetInformerNamesForTesting()
	n, _ := NewInformerName("metrics")
	m := &recordingMetrics{}
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Identifier: n.WithResource(schema.GroupVersionResource{Resource: "pods"}), MetricsProvider: m})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Add(pod("ns", "b", "1", nil))
	if len(m.queued) != 2 || m.queued[1] != 2 {
		t.Errorf("queued gauge = %v", m.queued)
	}
	if f.Name() != "metrics" {
		t.Errorf("Name() = %q", f.Name())
	}
}

func TestRealFIFOPanickingProcessorUnlockWhileProcessing(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, AtomicEvents: true, UnlockWhileProcessing: true})
	for _, name := range []string{"a", "b"} {
		if err := f.Add(pod("ns", name, "1", nil)); err != nil {
			t.Fatal(err)
		}
	}
	popPanicking := func() (recovered interface{}) {
		defer func() { recovered = recover() }()
		_, _ = f.Pop(func(interface{}, bool) error { panic("handler failed") })
		return nil
	}
	if got := popPanicking(); got != "handler failed" {
		t.Fatalf("recovered %v, want the processor's panic", got)
	}
	// The queue must still be usable: its lock was released exactly once.
	var popped string
	if _, err := f.Pop(func(obj interface{}, _ bool) error {
		popped = obj.(Deltas).Newest().Object.(*v1.Pod).Name
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if popped != "b" {
		t.Errorf("popped %q, want b", popped)
	}
	if err := f.Add(pod("ns", "c", "2", nil)); err != nil {
		t.Errorf("Add after panic: %v", err)
	}
}

// TestRealFIFOSyncAndCloseSignals: Done closes once the first Replace has
// been popped, and IsClosed turns true on Close.
func TestRealFIFOSyncAndCloseSignals(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: MetaNamespaceKeyFunc})
	if err := f.Replace([]interface{}{pod("ns", "a", "1", nil)}, "1"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-f.Done():
		t.Fatal("Done closed before the initial list was processed")
	default:
	}
	if _, err := f.Pop(func(interface{}, bool) error { return nil }); err != nil {
		t.Fatal(err)
	}
	select {
	case <-f.Done():
	default:
		t.Fatal("Done still open after the initial list was processed")
	}
	if f.IsClosed() {
		t.Fatal("IsClosed before Close")
	}
	f.Close()
	if !f.IsClosed() {
		t.Fatal("IsClosed false after Close")
	}
}

// installedInformerMetrics is the provider TestSetInformerMetricsProvider
// installs. Only the first installation in a process counts, and the test
// runs again under -count: every run installs this same provider first.
var installedInformerMetrics = &recordingMetrics{}

// TestSetInformerMetricsProvider: a queue created without a provider uses
// the process-wide one, and only the first provider installed counts. No
// other test in this package installs one.
func TestSetInformerMetricsProvider(t *testing.T) {
	ResetInformerNamesForTesting()
	defer ResetInformerNamesForTesting()
	first, second := installedInformerMetrics, &recordingMetrics{}
	SetInformerMetricsProvider(first)
	SetInformerMetricsProvider(second)
	first.mu.Lock()
	before := len(first.queued)
	first.mu.Unlock()
	n, _ := NewInformerName("global-metrics")
	f := NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, Identifier: n.WithResource(schema.GroupVersionResource{Resource: "pods"})})
	_ = f.Add(pod("ns", "a", "1", nil))
	first.mu.Lock()
	defer first.mu.Unlock()
	if len(first.queued) == before {
		t.Error("the first provider recorded nothing")
	}
	if len(second.queued) != 0 {
		t.Error("the second provider was used")
	}
}
