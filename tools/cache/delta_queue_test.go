package cache

import (
	"errors"
	"fmt"
	"testing"
)

// arrivalOrder is a deltaOrder that keeps every delta in arrival order,
// so that deltaQueue is tested apart from DeltaFIFO's and RealFIFO's
// orders.
type arrivalOrder struct{ deltas Deltas }

func (o *arrivalOrder) add(_ string, d Delta) { o.deltas = append(o.deltas, d) }
func (o *arrivalOrder) pending() int          { return len(o.deltas) }

func (o *arrivalOrder) eachQueued(fn func(key string, newest Delta)) {
	newest := map[string]Delta{}
	var keys []string
	for _, d := range o.deltas {
		key, _ := DeletionHandlingMetaNamespaceKeyFunc(d.Object)
		if _, seen := newest[key]; !seen {
			keys = append(keys, key)
		}
		newest[key] = d
	}
	for _, key := range keys {
		fn(key, newest[key])
	}
}

// newTestDeltaQueue returns a deltaQueue over an arrivalOrder.
func newTestDeltaQueue(known KeyListerGetter, transform TransformFunc) (*deltaQueue, *arrivalOrder) {
	q, order := &deltaQueue{}, &arrivalOrder{}
	q.init(order, deltaQueueConfig{name: "test", knownObjects: known, transformer: transform, metrics: newQueueMetrics(InformerNameAndResource{}, nil)})
	return q, order
}

// TestDeltaQueueReplacePlan: the deletions a Replace derives, for every
// object the queue or the consumer holds that the list lacks, with its
// last known state.
func TestDeltaQueueReplacePlan(t *testing.T) {
	tests := []struct {
		name   string
		known  *fakeKnownObjects
		queued Deltas
		list   []interface{}
		want   string // the planned deletions, as describeDeltas shows them
	}{
		{name: "listed objects stay", known: knownPods(pod("ns", "a", "1", nil)), list: []interface{}{pod("ns", "a", "2", nil)}},
		{name: "a known object missing from the list", known: knownPods(pod("ns", "a", "1", nil), pod("ns", "b", "1", nil)),
			list: []interface{}{pod("ns", "a", "2", nil)}, want: "Deleted:tombstone(ns/b,b@1)"},
		{name: "a queued object missing from the list keeps its newest queued state",
			known: knownPods(pod("ns", "b", "1", nil)), queued: Deltas{{Updated, pod("ns", "b", "2", nil)}},
			want: "Deleted:tombstone(ns/b,b@2)"},
		{name: "a queued deletion needs no other", known: knownPods(pod("ns", "b", "1", nil)), queued: Deltas{{Deleted, pod("ns", "b", "2", nil)}}},
		{name: "a queued tombstone's object is the last state",
			queued: Deltas{{Sync, DeletedFinalStateUnknown{Key: "ns/c", Obj: pod("ns", "c", "3", nil)}}},
			want:   "Deleted:tombstone(ns/c,c@3)"},
		{name: "a known key without object", known: &fakeKnownObjects{keys: []string{"ns/gone"}}, want: "Deleted:tombstone(ns/gone,nil)"},
		{name: "a known key whose lookup fails", known: &fakeKnownObjects{keys: []string{"ns/x"}, failing: map[string]bool{"ns/x": true}},
			want: "Deleted:tombstone(ns/x,nil)"},
		{name: "no known objects", queued: Deltas{{Added, pod("ns", "a", "1", nil)}}, want: "Deleted:tombstone(ns/a,a@1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var known KeyListerGetter
			if tc.known != nil {
				known = tc.known
			}
			q, order := newTestDeltaQueue(known, nil)
			order.deltas = tc.queued
			plan, err := q.planReplace(tc.list)
			if err != nil {
				t.Fatal(err)
			}
			var got Deltas
			for _, tomb := range plan.deletions {
				got = append(got, Delta{Deleted, tomb})
			}
			if describeDeltas(got) != tc.want {
				t.Errorf("deletions %q, want %q", describeDeltas(got), tc.want)
			}
			if len(plan.listedKeys) != len(tc.list) {
				t.Errorf("%d listed keys for %d objects", len(plan.listedKeys), len(tc.list))
			}
		})
	}
}

func TestDeltaQueueReplacePlanRejectsUnkeyableObjects(t *testing.T) {
	q, _ := newTestDeltaQueue(nil, nil)
	var keyErr KeyError
	if _, err := q.planReplace([]interface{}{"no metadata"}); !errors.As(err, &keyErr) {
		t.Errorf("planReplace = %v, want a KeyError", err)
	}
}

// TestDeltaQueueResync: a Sync delta for every known object that has
// nothing queued, as it is known (not transformed again).
func TestDeltaQueueResync(t *testing.T) {
	tests := []struct {
		name   string
		known  *fakeKnownObjects
		queued Deltas
		want   string // the deltas queued by the resync
	}{
		{name: "every known object", known: knownPods(pod("ns", "a", "1", nil), pod("ns", "b", "2", nil)), want: "Sync:a@1 Sync:b@2"},
		{name: "not one with a queued delta", known: knownPods(pod("ns", "a", "1", nil), pod("ns", "b", "2", nil)),
			queued: Deltas{{Updated, pod("ns", "b", "3", nil)}}, want: "Sync:a@1"},
		{name: "not a key without object or whose lookup fails",
			known: &fakeKnownObjects{keys: []string{"ns/gone", "ns/x"}, failing: map[string]bool{"ns/x": true}}},
		{name: "nothing without known objects"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var known KeyListerGetter
			if tc.known != nil {
				known = tc.known
			}
			calls := 0
			q, order := newTestDeltaQueue(known, labelTransform(&calls))
			order.deltas = tc.queued
			if err := q.resyncLocked(); err != nil {
				t.Fatal(err)
			}
			if got := describeDeltas(order.deltas[len(tc.queued):]); got != tc.want {
				t.Errorf("queued %q, want %q", got, tc.want)
			}
			if calls != 0 {
				t.Errorf("the transform ran %d times on known objects", calls)
			}
		})
	}
}

// TestDeltaQueueKeysAndTransforms: how an object entering the queue is
// keyed and whether it is transformed.
func TestDeltaQueueKeysAndTransforms(t *testing.T) {
	tomb := DeletedFinalStateUnknown{Key: "ns/t", Obj: pod("ns", "t", "1", nil)}
	tests := []struct {
		name          string
		obj           interface{}
		fresh         bool
		wantKey       string
		wantErr       bool
		wantTransform bool
	}{
		{name: "an object", obj: pod("ns", "a", "1", nil), fresh: true, wantKey: "ns/a", wantTransform: true},
		{name: "an object transformed already", obj: pod("ns", "a", "1", nil), wantKey: "ns/a"},
		{name: "a tombstone is keyed by its key and not transformed", obj: tomb, fresh: true, wantKey: "ns/t"},
		{name: "Deltas are keyed by the newest", obj: Deltas{{Added, pod("ns", "old", "1", nil)}, {Updated, pod("ns", "new", "2", nil)}}, wantKey: "ns/new"},
		{name: "empty Deltas have no key", obj: Deltas{}, wantErr: true},
		{name: "an object without metadata has no key", obj: "no metadata", fresh: true, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			q, order := newTestDeltaQueue(nil, labelTransform(&calls))
			key, err := q.keyOf(tc.obj)
			if (err != nil) != tc.wantErr || key != tc.wantKey {
				t.Fatalf("keyOf = %q, %v; want %q (error: %v)", key, err, tc.wantKey, tc.wantErr)
			}
			if tc.wantErr {
				var keyErr KeyError
				if err := q.push(Added, tc.obj, tc.fresh); !errors.As(err, &keyErr) {
					t.Errorf("push = %v, want a KeyError", err)
				}
				return
			}
			if err := q.push(Added, tc.obj, tc.fresh); err != nil {
				t.Fatal(err)
			}
			got := order.deltas[0].Object
			if isTransformed(got) != tc.wantTransform || (calls == 1) != tc.wantTransform {
				t.Errorf("queued %s (transform called %d times), want transformed: %v", fmt.Sprint(got), calls, tc.wantTransform)
			}
		})
	}
}

// TestDeltaQueueWaitsAndCloses: a pop waits for a delta; Close wakes it,
// and a closed queue still hands out what is pending.
func TestDeltaQueueWaitsAndCloses(t *testing.T) {
	q, _ := newTestDeltaQueue(nil, nil)
	q.lock.Lock()
	if err := q.push(Added, pod("ns", "a", "1", nil), true); err != nil {
		t.Fatal(err)
	}
	q.lock.Unlock()
	q.close()
	q.lock.Lock()
	defer q.lock.Unlock()
	if err := q.waitLocked(); err != nil {
		t.Errorf("waitLocked with a delta pending after Close = %v", err)
	}
	empty, _ := newTestDeltaQueue(nil, nil)
	empty.close()
	empty.lock.Lock()
	defer empty.lock.Unlock()
	if err := empty.waitLocked(); err != ErrFIFOClosed {
		t.Errorf("waitLocked on a closed empty queue = %v, want ErrFIFOClosed", err)
	}
}
