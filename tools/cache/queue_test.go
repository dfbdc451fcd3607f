package cache

import (
	"fmt"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
)

// describeDeltas renders deltas as "Type:name@rv" for compact comparison.
func describeDeltas(d Deltas) string {
	parts := make([]string, 0, len(d))
	for _, delta := range d {
		switch o := delta.Object.(type) {
		case *v1.Pod:
			parts = append(parts, fmt.Sprintf("%s:%s@%s", delta.Type, o.Name, o.ResourceVersion))
		case DeletedFinalStateUnknown:
			inner := "nil"
			if p, ok := o.Obj.(*v1.Pod); ok {
				inner = p.Name + "@" + p.ResourceVersion
			}
			parts = append(parts, fmt.Sprintf("%s:tombstone(%s,%s)", delta.Type, o.Key, inner))
		default:
			parts = append(parts, fmt.Sprintf("%s:%T", delta.Type, o))
		}
	}
	return strings.Join(parts, " ")
}

func popDeltas(t *testing.T, q Queue) (Deltas, bool) {
	t.Helper()
	var inInitial bool
	obj, err := q.Pop(func(obj interface{}, initial bool) error {
		inInitial = initial
		return nil
	})
	if err != nil {
		t.Fatalf("Pop: %v", err)
	}
	return obj.(Deltas), inInitial
}

func TestDeltaFIFOAccumulatesDeltas(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: MetaNamespaceKeyFunc})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Add(pod("ns", "b", "2", nil))
	_ = f.Update(pod("ns", "a", "3", nil))
	_ = f.Delete(pod("ns", "a", "4", nil))
	_ = f.Delete(pod("ns", "a", "4", nil)) // duplicate deletion collapses

	d, _ := popDeltas(t, f)
	if got, want := describeDeltas(d), "Added:a@1 Updated:a@3 Deleted:a@4"; got != want {
		t.Errorf("first pop = %q, want %q", got, want)
	}
	if d.Oldest().Type != Added || d.Newest().Type != Deleted {
		t.Errorf("Oldest/Newest wrong: %v %v", d.Oldest(), d.Newest())
	}
	d, _ = popDeltas(t, f)
	if got := describeDeltas(d); got != "Added:b@2" {
		t.Errorf("second pop = %q", got)
	}
	if !f.HasSynced() {
		t.Error("a queue written with Add is synced once drained")
	}
}

func TestDeltaFIFODeleteOfUnknownIsIgnored(t *testing.T) {
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(pod("ns", "known", "1", nil))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	_ = f.Delete(pod("ns", "unknown", "2", nil))
	_ = f.Delete(pod("ns", "known", "3", nil))
	d, _ := popDeltas(t, f)
	if got := describeDeltas(d); got != "Deleted:known@3" {
		t.Errorf("pop = %q", got)
	}
	_ = f.Add(pod("ns", "x", "4", nil))
	if d, _ := popDeltas(t, f); describeDeltas(d) != "Added:x@4" {
		t.Errorf("unknown deletion was queued: %q", describeDeltas(d))
	}
}

func TestDeltaFIFODedupPrefersRealFinalState(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Delete(pod("ns", "a", "2", nil))
	_ = f.Delete(DeletedFinalStateUnknown{Key: "ns/a", Obj: pod("ns", "a", "1", nil)})
	d, _ := popDeltas(t, f)
	if got := describeDeltas(d); got != "Added:a@1 Deleted:a@2" {
		t.Errorf("pop = %q", got)
	}
}

func TestDeltaFIFOReplace(t *testing.T) {
	for _, emitReplaced := range []bool{false, true} {
		t.Run(fmt.Sprintf("EmitDeltaTypeReplaced=%v", emitReplaced), func(t *testing.T) {
			known := NewStore(MetaNamespaceKeyFunc)
			_ = known.Add(pod("ns", "stale-known", "1", nil))
			_ = known.Add(pod("ns", "kept", "1", nil))
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: emitReplaced})
			_ = f.Add(pod("ns", "stale-queued", "2", nil))
			if err := f.Replace([]interface{}{pod("ns", "kept", "3", nil), pod("ns", "new", "4", nil)}, "4"); err != nil {
				t.Fatal(err)
			}
			kind := "Sync"
			if emitReplaced {
				kind = "Replaced"
			}
			want := map[string]string{
				"ns/stale-queued": "Added:stale-queued@2 Deleted:tombstone(ns/stale-queued,stale-queued@2)",
				"ns/kept":         kind + ":kept@3",
				"ns/new":          kind + ":new@4",
				"ns/stale-known":  "Deleted:tombstone(ns/stale-known,stale-known@1)",
			}
			for n := len(want); n > 0; n-- {
				d, _ := popDeltas(t, f)
				key, _ := f.KeyOf(d)
				if got := describeDeltas(d); got != want[key] {
					t.Errorf("deltas for %s = %q, want %q", key, got, want[key])
				}
				delete(want, key)
			}
			if len(want) != 0 {
				t.Errorf("never popped: %v", want)
			}
		})
	}
}

func TestDeltaFIFOHasSyncedAfterInitialReplace(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	if f.HasSynced() || IsDone(f.HasSyncedChecker()) {
		t.Fatal("synced before anything happened")
	}
	_ = f.Replace([]interface{}{pod("ns", "a", "1", nil), pod("ns", "b", "2", nil)}, "2")
	_, initial := popDeltas(t, f)
	if !initial || f.HasSynced() {
		t.Fatalf("after first pop: initial=%v synced=%v", initial, f.HasSynced())
	}
	_ = f.Add(pod("ns", "c", "3", nil))
	_, initial = popDeltas(t, f)
	if !initial {
		t.Error("the last item of the initial list must be marked initial")
	}
	if !f.HasSynced() || !IsDone(f.HasSyncedChecker()) {
		t.Error("not synced after the initial list was popped")
	}
	_, initial = popDeltas(t, f)
	if initial {
		t.Error("item added after the initial list is marked initial")
	}
}

func TestDeltaFIFOResync(t *testing.T) {
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(pod("ns", "a", "1", nil))
	_ = known.Add(pod("ns", "b", "1", nil))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	_ = f.Update(pod("ns", "a", "2", nil))
	_ = f.Resync()
	got := map[string]string{}
	for i := 0; i < 2; i++ {
		d, _ := popDeltas(t, f)
		key, _ := f.KeyOf(d)
		got[key] = describeDeltas(d)
	}
	if got["ns/a"] != "Updated:a@2" || got["ns/b"] != "Sync:b@1" {
		t.Errorf("resync deltas = %v", got)
	}
}

func TestDeltaFIFOTransformer(t *testing.T) {
	calls := 0
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{Transformer: func(obj interface{}) (interface{}, error) {
		calls++
		p := obj.(*v1.Pod).DeepCopy()
		p.Labels = map[string]string{"seen": "yes"}
		return p, nil
	}})
	_ = f.Add(pod("ns", "a", "1", nil))
	d, _ := popDeltas(t, f)
	if d.Newest().Object.(*v1.Pod).Labels["seen"] != "yes" || calls != 1 {
		t.Errorf("transformer not applied once: calls=%d", calls)
	}
	if f.Transformer() == nil {
		t.Error("Transformer() is nil")
	}
}

func TestDeltaFIFOClose(t *testing.T) {
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
	case <-time.After(5 * time.Second):
		t.Fatal("Pop did not return after Close")
	}
	if !f.IsClosed() {
		t.Error("IsClosed false")
	}
}

func TestDeltaFIFOKeyOf(t *testing.T) {
	f := NewDeltaFIFO(MetaNamespaceKeyFunc, nil)
	if k, _ := f.KeyOf(Deltas{{Added, pod("a", "b", "", nil)}}); k != "a/b" {
		t.Errorf("KeyOf(Deltas) = %q", k)
	}
	if k, _ := f.KeyOf(DeletedFinalStateUnknown{Key: "x/y"}); k != "x/y" {
		t.Errorf("KeyOf(tombstone) = %q", k)
	}
	if _, err := f.KeyOf(Deltas{}); err == nil {
		t.Error("KeyOf(empty Deltas) should fail")
	}
}

func TestRealFIFOKeepsEveryEventInOrder(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: NewStore(MetaNamespaceKeyFunc)})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Update(pod("ns", "a", "2", nil))
	_ = f.Add(pod("ns", "b", "3", nil))
	_ = f.Delete(pod("ns", "a", "4", nil))
	var got []string
	for i := 0; i < 4; i++ {
		d, _ := popDeltas(t, f)
		got = append(got, describeDeltas(d))
	}
	if strings.Join(got, " ") != "Added:a@1 Updated:a@2 Added:b@3 Deleted:a@4" {
		t.Errorf("order = %v", got)
	}
}

func TestRealFIFOReplaceNonAtomic(t *testing.T) {
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(pod("ns", "gone-known", "1", nil))
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: known})
	_ = f.Add(pod("ns", "gone-queued", "2", nil))
	_ = f.Replace([]interface{}{pod("ns", "kept", "3", nil)}, "3")
	var got []string
	for i := 0; i < 4; i++ {
		d, _ := popDeltas(t, f)
		got = append(got, describeDeltas(d))
	}
	want := "Added:gone-queued@2 Deleted:tombstone(ns/gone-queued,gone-queued@2) Deleted:tombstone(ns/gone-known,gone-known@1) Replaced:kept@3"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestRealFIFOAtomic(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true})
	_ = f.Replace([]interface{}{pod("ns", "a", "1", nil), pod("ns", "b", "2", nil)}, "7")
	_ = f.Resync()
	_ = f.Bookmark("9")
	d, initial := popDeltas(t, f)
	info, ok := d[0].Object.(ReplacedAllInfo)
	if d[0].Type != ReplacedAll || !ok || info.ResourceVersion != "7" || len(info.Objects) != 2 || !initial {
		t.Errorf("first delta = %+v initial=%v", d, initial)
	}
	if !f.HasSynced() {
		t.Error("atomic FIFO not synced after its ReplacedAll was processed")
	}
	if d, _ := popDeltas(t, f); d[0].Type != SyncAll {
		t.Errorf("second delta = %v", d[0].Type)
	}
	if d, _ := popDeltas(t, f); d[0].Type != Bookmark || d[0].Object.(BookmarkInfo).ResourceVersion != "9" {
		t.Errorf("third delta = %+v", d[0])
	}
}

func TestRealFIFOOptionValidation(t *testing.T) {
	tests := []RealFIFOOptions{
		{AtomicEvents: true, KnownObjects: NewStore(MetaNamespaceKeyFunc)},
		{UnlockWhileProcessing: true},
		{EmitDeltaTypeBookmark: true},
	}
	for i, opts := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("case %d: invalid options accepted", i)
				}
			}()
			NewRealFIFOWithOptions(opts)
		}()
	}
}

func TestRealFIFOPopBatch(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Add(pod("ns", "b", "2", nil))
	_ = f.Update(pod("ns", "a", "3", nil)) // same key: ends the batch
	var batches [][]Delta
	var singles []Deltas
	batch := func(d []Delta, _ bool) error { batches = append(batches, d); return nil }
	single := func(obj interface{}, _ bool) error { singles = append(singles, obj.(Deltas)); return nil }
	if err := f.PopBatch(batch, single); err != nil {
		t.Fatal(err)
	}
	if err := f.PopBatch(batch, single); err != nil {
		t.Fatal(err)
	}
	if len(batches) != 1 || len(batches[0]) != 2 || len(singles) != 1 || describeDeltas(singles[0]) != "Updated:a@3" {
		t.Errorf("batches=%v singles=%v", batches, singles)
	}
}

func TestRealFIFOUnlockWhileProcessingAllowsProducers(t *testing.T) {
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
		case <-time.After(5 * time.Second):
			t.Error("Add blocked while the consumer was processing")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestFIFOCoalesces(t *testing.T) {
	f := NewFIFO(MetaNamespaceKeyFunc)
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Add(pod("ns", "b", "2", nil))
	_ = f.Update(pod("ns", "a", "3", nil))
	_ = f.Add(pod("ns", "c", "4", nil))
	_ = f.Delete(pod("ns", "c", "4", nil))
	var got []string
	for i := 0; i < 2; i++ {
		obj, err := f.Pop(func(interface{}, bool) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		p := obj.(*v1.Pod)
		got = append(got, p.Name+"@"+p.ResourceVersion)
	}
	if strings.Join(got, " ") != "a@3 b@2" {
		t.Errorf("got %v", got)
	}
	_ = f.Replace([]interface{}{pod("ns", "z", "9", nil)}, "9")
	obj, _ := f.Pop(func(interface{}, bool) error { return nil })
	if obj.(*v1.Pod).Name != "z" {
		t.Errorf("after Replace popped %v", obj)
	}
	f.Close()
	if _, err := f.Pop(func(interface{}, bool) error { return nil }); err != ErrFIFOClosed {
		t.Errorf("Pop on closed FIFO = %v", err)
	}
}

func TestFIFOHasSynced(t *testing.T) {
	f := NewFIFO(MetaNamespaceKeyFunc)
	_ = f.Replace([]interface{}{pod("ns", "a", "1", nil)}, "1")
	if f.HasSynced() {
		t.Fatal("synced before the initial item was popped")
	}
	_, _ = f.Pop(func(_ interface{}, initial bool) error {
		if !initial {
			t.Error("initial item not marked as such")
		}
		return nil
	})
	if !f.HasSynced() || !IsDone(f.HasSyncedChecker()) {
		t.Error("not synced after popping the initial item")
	}
}

func TestHeap(t *testing.T) {
	less := func(a, b interface{}) bool { return a.(*v1.Pod).ResourceVersion < b.(*v1.Pod).ResourceVersion }
	h := NewHeap(MetaNamespaceKeyFunc, less)
	_ = h.Add(pod("ns", "c", "3", nil))
	_ = h.BulkAdd([]interface{}{pod("ns", "a", "5", nil), pod("ns", "b", "2", nil)})
	_ = h.Update(pod("ns", "a", "1", nil))                    // moves to the front
	_ = h.AddIfNotPresent(pod("ns", "b", "0", nil))           // ignored: present
	_ = h.AddIfNotPresent(pod("ns", "d", "4", nil))           // added
	if err := h.Delete(pod("ns", "c", "", nil)); err != nil { // removed
		t.Fatal(err)
	}
	if err := h.Delete(pod("ns", "missing", "", nil)); err == nil {
		t.Error("deleting a missing item should fail")
	}
	if obj, ok, _ := h.GetByKey("ns/b"); !ok || obj.(*v1.Pod).ResourceVersion != "2" {
		t.Errorf("GetByKey = %v %v", obj, ok)
	}
	if len(h.List()) != 3 || len(h.ListKeys()) != 3 {
		t.Errorf("List/ListKeys sizes %d %d", len(h.List()), len(h.ListKeys()))
	}
	var got []string
	for i := 0; i < 3; i++ {
		obj, err := h.Pop()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, obj.(*v1.Pod).Name)
	}
	if strings.Join(got, "") != "abd" {
		t.Errorf("pop order %v", got)
	}
	h.Close()
	if _, err := h.Pop(); err == nil || !h.IsClosed() {
		t.Error("Pop on closed heap should fail")
	}
}
