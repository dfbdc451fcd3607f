package cache

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
)

// TestDeltaFIFOScenarios runs write sequences against a DeltaFIFO and
// compares what Pop hands out: one entry per object, in the order the
// objects first got a delta, with all their deltas.
func TestDeltaFIFOScenarios(t *testing.T) {
	tests := []struct {
		name         string
		known        KeyListerGetter
		emitReplaced bool
		writes       func(f *DeltaFIFO) error
		want         []string
	}{
		{
			name: "deltas accumulate per object",
			writes: func(f *DeltaFIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Add(pod("ns", "b", "2", nil)),
					f.Update(pod("ns", "a", "3", nil)), f.Delete(pod("ns", "a", "4", nil)))
			},
			want: []string{"Added:a@1 Updated:a@3 Deleted:a@4", "Added:b@2"},
		},
		{
			name: "two deletions collapse, keeping the real final state",
			writes: func(f *DeltaFIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Delete(pod("ns", "a", "2", nil)),
					f.Delete(DeletedFinalStateUnknown{Key: "ns/a", Obj: pod("ns", "a", "1", nil)}))
			},
			want: []string{"Added:a@1 Deleted:a@2"},
		},
		{
			name: "a real final state replaces a tombstone",
			writes: func(f *DeltaFIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)),
					f.Delete(DeletedFinalStateUnknown{Key: "ns/a", Obj: pod("ns", "a", "1", nil)}),
					f.Delete(pod("ns", "a", "2", nil)))
			},
			want: []string{"Added:a@1 Deleted:a@2"},
		},
		{
			name:   "deleting an object unknown to the queue is ignored without known objects",
			writes: func(f *DeltaFIFO) error { return f.Delete(pod("ns", "a", "1", nil)) },
		},
		{
			name:  "deleting an object is ignored only when neither queued nor known",
			known: knownPods(pod("ns", "known", "1", nil)),
			writes: func(f *DeltaFIFO) error {
				return errors.Join(f.Delete(pod("ns", "unknown", "2", nil)), f.Delete(pod("ns", "known", "3", nil)))
			},
			want: []string{"Deleted:known@3"},
		},
		{
			name:   "a failing lookup does not hide a deletion",
			known:  &fakeKnownObjects{keys: []string{"ns/a"}, failing: map[string]bool{"ns/a": true}},
			writes: func(f *DeltaFIFO) error { return f.Delete(pod("ns", "a", "3", nil)) },
			want:   []string{"Deleted:a@3"},
		},
		{
			name:  "Replace records Sync deltas, then deletions of queued and known objects",
			known: knownPods(pod("ns", "gone-known", "1", nil), pod("ns", "kept", "1", nil)),
			writes: func(f *DeltaFIFO) error {
				return errors.Join(f.Add(pod("ns", "gone-queued", "2", nil)),
					f.Replace([]interface{}{pod("ns", "kept", "3", nil), pod("ns", "new", "4", nil)}, "4"))
			},
			want: []string{
				"Added:gone-queued@2 Deleted:tombstone(ns/gone-queued,gone-queued@2)",
				"Sync:kept@3", "Sync:new@4",
				"Deleted:tombstone(ns/gone-known,gone-known@1)",
			},
		},
		{
			name:         "Replace records Replaced deltas when asked",
			emitReplaced: true,
			writes:       func(f *DeltaFIFO) error { return f.Replace([]interface{}{pod("ns", "a", "1", nil)}, "1") },
			want:         []string{"Replaced:a@1"},
		},
		{
			name: "Replace adds nothing to a queued deletion",
			writes: func(f *DeltaFIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Delete(pod("ns", "a", "2", nil)), f.Replace(nil, "3"))
			},
			want: []string{"Added:a@1 Deleted:a@2"},
		},
		{
			name: "the tombstone of a queued tombstone carries the object",
			writes: func(f *DeltaFIFO) error {
				return errors.Join(f.Add(pod("ns", "a", "1", nil)),
					f.Update(DeletedFinalStateUnknown{Key: "ns/a", Obj: pod("ns", "a", "1", nil)}), f.Replace(nil, "3"))
			},
			want: []string{"Added:a@1 Updated:tombstone(ns/a,a@1) Deleted:tombstone(ns/a,a@1)"},
		},
		{
			name:   "a known object that vanished during Replace gets an empty tombstone",
			known:  &fakeKnownObjects{keys: []string{"ns/missing", "ns/failing"}, failing: map[string]bool{"ns/failing": true}},
			writes: func(f *DeltaFIFO) error { return f.Replace(nil, "1") },
			want:   []string{"Deleted:tombstone(ns/missing,nil)", "Deleted:tombstone(ns/failing,nil)"},
		},
		{
			name:  "Resync replays known objects that have nothing queued",
			known: knownPods(pod("ns", "a", "1", nil), pod("ns", "b", "1", nil)),
			writes: func(f *DeltaFIFO) error {
				return errors.Join(f.Update(pod("ns", "a", "2", nil)), f.Resync())
			},
			want: []string{"Updated:a@2", "Sync:b@1"},
		},
		{
			name:   "Resync skips known keys whose lookup fails or finds nothing",
			known:  &fakeKnownObjects{keys: []string{"ns/missing", "ns/failing"}, failing: map[string]bool{"ns/failing": true}},
			writes: func(f *DeltaFIFO) error { return f.Resync() },
		},
		{
			name:   "Resync without known objects does nothing",
			writes: func(f *DeltaFIFO) error { return errors.Join(f.Add(pod("ns", "a", "1", nil)), f.Resync()) },
			want:   []string{"Added:a@1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: tc.known, EmitDeltaTypeReplaced: tc.emitReplaced})
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

func TestDeltaFIFOKeyErrors(t *testing.T) {
	failing := func(interface{}) (string, error) { return "", errors.New("no key") }
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: failing})
	for name, err := range map[string]error{
		"Add":     f.Add(pod("ns", "a", "1", nil)),
		"Update":  f.Update(pod("ns", "a", "1", nil)),
		"Delete":  f.Delete(pod("ns", "a", "1", nil)),
		"Replace": f.Replace([]interface{}{pod("ns", "a", "1", nil)}, "1"),
	} {
		var keyErr KeyError
		if !errors.As(err, &keyErr) {
			t.Errorf("%s: err = %v, want a KeyError", name, err)
		}
	}
	if n := pendingDeltas(f); n != 0 {
		t.Errorf("%d items queued by failing writes", n)
	}
}

func TestDeltaFIFOKeyOf(t *testing.T) {
	f := NewDeltaFIFO(MetaNamespaceKeyFunc, nil)
	tests := []struct {
		obj     interface{}
		want    string
		wantErr bool
	}{
		{obj: pod("a", "b", "", nil), want: "a/b"},
		{obj: Deltas{{Added, pod("x", "old", "", nil)}, {Updated, pod("a", "b", "", nil)}}, want: "a/b"},
		{obj: DeletedFinalStateUnknown{Key: "x/y"}, want: "x/y"},
		{obj: Deltas{{Deleted, DeletedFinalStateUnknown{Key: "x/y"}}}, want: "x/y"},
		{obj: Deltas{}, wantErr: true},
		{obj: "not an object", wantErr: true},
	}
	for _, tc := range tests {
		got, err := f.KeyOf(tc.obj)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("KeyOf(%#v) = %q, %v", tc.obj, got, err)
		}
	}
	if _, err := f.KeyOf(Deltas{}); !errors.Is(err, ErrZeroLengthDeltasObject) {
		t.Errorf("empty Deltas error = %v", err)
	}
}

// TestDeltaFIFOInitialSync follows HasSynced and the isInInitialList flag
// through the pops of the first Replace.
func TestDeltaFIFOInitialSync(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: knownPods(pod("ns", "gone", "1", nil))})
	if f.HasSynced() || IsDone(f.HasSyncedChecker()) {
		t.Fatal("synced before anything happened")
	}
	// Two listed objects and one deletion make three initial items.
	_ = f.Replace([]interface{}{pod("ns", "a", "1", nil), pod("ns", "b", "2", nil)}, "2")
	_ = f.Add(pod("ns", "a", "3", nil)) // joins a's queued entry
	_ = f.Add(pod("ns", "c", "4", nil)) // after the initial list
	for i, wantInitial := range []bool{true, true, true, false} {
		if f.HasSynced() != (i == 3) {
			t.Errorf("before pop %d: HasSynced = %v", i, f.HasSynced())
		}
		if _, initial := popDeltas(t, f); initial != wantInitial {
			t.Errorf("pop %d: isInInitialList = %v", i, initial)
		}
	}
	if !f.HasSynced() || !IsDone(f.HasSyncedChecker()) {
		t.Error("not synced after the initial list was popped")
	}
	select {
	case <-f.Done():
	default:
		t.Error("Done not closed")
	}
}

func TestDeltaFIFOSyncedByPlainWrite(t *testing.T) {
	f := NewDeltaFIFO(MetaNamespaceKeyFunc, nil)
	_ = f.Add(pod("ns", "a", "1", nil))
	if !f.HasSynced() {
		t.Error("a queue first written by Add is synced")
	}
	_ = f.Replace([]interface{}{pod("ns", "b", "1", nil)}, "1")
	if !f.HasSynced() {
		t.Error("a later Replace made the queue unsynced")
	}
}

func TestDeltaFIFOTransformer(t *testing.T) {
	calls := 0
	known := knownPods(pod("ns", "k", "1", nil))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, Transformer: labelTransform(&calls)})
	if f.Transformer() == nil {
		t.Fatal("Transformer() is nil")
	}
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Update(pod("ns", "a", "2", nil))
	_ = f.Delete(pod("ns", "a", "3", nil))
	_ = f.Replace([]interface{}{pod("ns", "b", "4", nil)}, "4") // k vanishes: a tombstone
	_ = f.Resync()                                              // b is queued; k's tombstone too: nothing
	if calls != 4 {
		t.Errorf("transformer called %d times, want 4 (Add, Update, Delete, listed object)", calls)
	}
	for pendingDeltas(f) > 0 {
		d, _ := popDeltas(t, f)
		for _, delta := range d {
			if tomb, ok := delta.Object.(DeletedFinalStateUnknown); ok {
				if isTransformed(tomb.Obj) {
					t.Errorf("tombstone content of %s transformed again", tomb.Key)
				}
				continue
			}
			if !isTransformed(delta.Object) {
				t.Errorf("%s delta not transformed", delta.Type)
			}
		}
	}
	// Resync replays the consumer's copies, transformed already.
	_ = f.Resync()
	if d, _ := popDeltas(t, f); d[0].Type != Sync || isTransformed(d[0].Object) || calls != 4 {
		t.Errorf("resync delta %v transformed (calls %d)", d, calls)
	}
	failing := NewDeltaFIFOWithOptions(DeltaFIFOOptions{Transformer: func(interface{}) (interface{}, error) { return nil, errors.New("bad") }})
	if err := failing.Add(pod("ns", "a", "1", nil)); err == nil || pendingDeltas(failing) != 0 {
		t.Errorf("failing transform: err %v, %d queued", err, pendingDeltas(failing))
	}
}

func TestDeltaFIFOPop(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	_ = f.Add(pod("ns", "a", "1", nil))
	boom := errors.New("boom")
	item, err := f.Pop(func(interface{}, bool) error { return boom })
	if err != boom || describeDeltas(item.(Deltas)) != "Added:a@1" {
		t.Errorf("Pop = %v, %v; want the item and the process error", item, err)
	}
	if pendingDeltas(f) != 0 {
		t.Error("an item whose processing failed was requeued")
	}
	// A blocked Pop wakes up for a new item.
	got := make(chan string)
	go func() {
		d, _ := popDeltas(t, f)
		got <- describeDeltas(d)
	}()
	_ = f.Add(pod("ns", "b", "2", nil))
	if d := <-got; d != "Added:b@2" {
		t.Errorf("blocked Pop got %q", d)
	}
}

func TestDeltaFIFOClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		done := make(chan error)
		go func() {
			_, err := f.Pop(func(interface{}, bool) error { return nil })
			done <- err
		}()
		f.Close()
		select {
		case err := <-done:
			if err != ErrFIFOClosed {
				t.Errorf("Pop after Close = %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Pop did not return after Close")
		}
		if !f.IsClosed() {
			t.Error("IsClosed false")
		}
		// What was queued before Close is still handed out.
		g := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
		_ = g.Add(pod("ns", "a", "1", nil))
		g.Close()
		if d, _ := popDeltas(t, g); describeDeltas(d) != "Added:a@1" {
			t.Errorf("pop after Close = %q", describeDeltas(d))
		}
		if _, err := g.Pop(func(interface{}, bool) error { return nil }); err != ErrFIFOClosed {
			t.Errorf("Pop on a drained closed queue = %v", err)
		}
	})
}

func TestDeltaFIFONames(t *testing.T) {
	if n := NewDeltaFIFOWithOptions(DeltaFIFOOptions{}).Name(); n != "DeltaFIFO" {
		t.Errorf("default name %q", n)
	}
	if n := NewDeltaFIFOWithOptions(DeltaFIFOOptions{Name: "pods"}).Name(); n != "pods" {
		t.Errorf("name %q", n)
	}
}

func TestDeltasOldestNewest(t *testing.T) {
	var empty Deltas
	if empty.Oldest() != nil || empty.Newest() != nil {
		t.Error("empty Deltas has an oldest or newest delta")
	}
	d := Deltas{{Added, pod("ns", "a", "1", nil)}, {Updated, pod("ns", "a", "2", nil)}}
	if d.Oldest().Type != Added || d.Newest().Type != Updated {
		t.Errorf("Oldest %v Newest %v", d.Oldest(), d.Newest())
	}
	if one := d[:1]; one.Oldest() != one.Newest() {
		t.Error("a single delta is both oldest and newest")
	}
}

func TestDeltaFIFOReplaceTransformsSyncDeltas(t *testing.T) {
	transformed := 0
	known := NewStore(MetaNamespaceKeyFunc)
	if err := known.Add(pod("ns", "known", "1", map[string]string{"t": "yes"})); err != nil {
		t.Fatal(err)
	}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
		KeyFunction:  MetaNamespaceKeyFunc,
		KnownObjects: known,
		Transformer: func(obj interface{}) (interface{}, error) {
			transformed++
			p := obj.(*v1.Pod).DeepCopy()
			p.Labels = map[string]string{"t": "yes"}
			return p, nil
		},
	})
	if err := f.Replace([]interface{}{pod("ns", "known", "2", nil), pod("ns", "new", "2", nil)}, "2"); err != nil {
		t.Fatal(err)
	}
	if transformed != 2 {
		t.Errorf("Replace transformed %d objects, want 2", transformed)
	}
	for range 2 {
		_, err := f.Pop(func(obj interface{}, _ bool) error {
			d := obj.(Deltas).Newest()
			if d.Type != Sync {
				t.Errorf("delta type = %v, want %v", d.Type, Sync)
			}
			if p := d.Object.(*v1.Pod); p.Labels["t"] != "yes" {
				t.Errorf("%s/%s was queued untransformed", p.Namespace, p.Name)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Resync replays the known (already transformed) objects as they are.
	if err := f.Resync(); err != nil {
		t.Fatal(err)
	}
	if transformed != 2 {
		t.Errorf("Resync called the transformer; %d calls in total, want 2", transformed)
	}
}
