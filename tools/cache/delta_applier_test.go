package cache

import (
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// recordingSink records the notifications a deltaApplier derives.
type recordingSink struct{ got []string }

func (s *recordingSink) add(obj interface{}, initial bool) {
	s.got = append(s.got, fmt.Sprintf("add %s initial=%v", describeObj(obj), initial))
}

func (s *recordingSink) update(oldObj, newObj interface{}, sync bool) {
	s.got = append(s.got, fmt.Sprintf("update %s->%s sync=%v", describeObj(oldObj), describeObj(newObj), sync))
}

func (s *recordingSink) delete(obj interface{}) { s.got = append(s.got, "delete "+describeObj(obj)) }

func (s *recordingSink) resyncAll(objs []interface{}) {
	s.got = append(s.got, fmt.Sprintf("resync %d", len(objs)))
}

func describeObj(obj interface{}) string {
	switch o := obj.(type) {
	case *v1.Pod:
		return o.Name + "@" + o.ResourceVersion
	case DeletedFinalStateUnknown:
		return "tombstone(" + describeObj(o.Obj) + ")"
	}
	return fmt.Sprintf("%T", obj)
}

// TestDeltaApplier applies popped deltas to an informer's store and checks
// the notifications and the store's content.
func TestDeltaApplier(t *testing.T) {
	tests := []struct {
		name      string
		deltas    Deltas
		initial   bool
		want      []string
		wantKeys  string
		wantStore string // resource version the store bookmarked
	}{
		{name: "an added object", deltas: Deltas{{Added, pod("ns", "new", "5", nil)}}, initial: true,
			want: []string{"add new@5 initial=true"}, wantKeys: "[ns/a ns/b ns/new]"},
		{name: "an update", deltas: Deltas{{Updated, pod("ns", "a", "5", nil)}},
			want: []string{"update a@1->a@5 sync=false"}, wantKeys: "[ns/a ns/b]"},
		{name: "a replace without change is a sync", deltas: Deltas{{Replaced, pod("ns", "a", "1", nil)}, {Sync, pod("ns", "b", "1", nil)}},
			want: []string{"update a@1->a@1 sync=true", "update b@1->b@1 sync=true"}, wantKeys: "[ns/a ns/b]"},
		{name: "a deletion", deltas: Deltas{{Deleted, pod("ns", "a", "6", nil)}},
			want: []string{"delete a@6"}, wantKeys: "[ns/b]"},
		{name: "ReplacedAll deletes what vanished and bookmarks",
			deltas: Deltas{{ReplacedAll, ReplacedAllInfo{ResourceVersion: "9", Objects: []interface{}{pod("ns", "b", "7", nil), pod("ns", "c", "8", nil)}}}},
			want:   []string{"delete tombstone(a@1)", "update b@1->b@7 sync=false", "add c@8 initial=false"}, wantKeys: "[ns/b ns/c]", wantStore: "9"},
		{name: "SyncAll redelivers everything", deltas: Deltas{{SyncAll, SyncAllInfo{}}},
			want: []string{"resync 2"}, wantKeys: "[ns/a ns/b]"},
		{name: "a bookmark reaches the store", deltas: Deltas{{Bookmark, BookmarkInfo{ResourceVersion: "12"}}},
			wantKeys: "[ns/a ns/b]", wantStore: "12"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			store := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
			_ = store.Add(pod("ns", "a", "1", nil))
			_ = store.Add(pod("ns", "b", "1", nil))
			sink := &recordingSink{}
			a := &deltaApplier{store: store, handler: sink}
			if err := a.process(tc.deltas, tc.initial); err != nil {
				t.Fatal(err)
			}
			if strings.Join(sink.got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("notifications:\n got  %q\n want %q", sink.got, tc.want)
			}
			if keys := fmt.Sprint(sorted(store.ListKeys())); keys != tc.wantKeys {
				t.Errorf("store keys %s, want %s", keys, tc.wantKeys)
			}
			if rv := store.LastStoreSyncResourceVersion(); tc.wantStore != "" && rv != tc.wantStore {
				t.Errorf("store version %q, want %q", rv, tc.wantStore)
			}
		})
	}
}

func TestDeltaApplierRejectsMalformedInput(t *testing.T) {
	a := &deltaApplier{store: NewStore(DeletionHandlingMetaNamespaceKeyFunc), handler: &recordingSink{}}
	if err := a.process(pod("ns", "a", "1", nil), false); err != errNotDeltas {
		t.Errorf("process(non-Deltas) = %v", err)
	}
	if err := a.process(Deltas{{ReplacedAll, "not info"}}, false); err == nil {
		t.Error("ReplacedAll without ReplacedAllInfo accepted")
	}
	if err := a.process(Deltas{{Added, "no metadata"}}, false); err == nil {
		t.Error("an object without a key was stored")
	}
}

func TestDeltaApplierBatch(t *testing.T) {
	batch := []Delta{{Added, pod("ns", "new", "5", nil)}, {Updated, pod("ns", "a", "6", nil)}, {Deleted, pod("ns", "b", "7", nil)}}
	want := "add new@5 initial=true; update a@1->a@6 sync=false; delete b@7"
	stores := map[string]func() Store{
		"transaction store": func() Store { return NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{}) },
		"plain store": func() Store {
			s := NewStore(DeletionHandlingMetaNamespaceKeyFunc)
			return &FakeCustomStore{
				AddFunc: s.Add, UpdateFunc: s.Update, DeleteFunc: s.Delete, ListKeysFunc: s.ListKeys, ListFunc: s.List,
				GetFunc: s.Get, GetByKeyFunc: s.GetByKey,
			}
		},
	}
	for name, newStore := range stores {
		t.Run(name, func(t *testing.T) {
			store := newStore()
			_ = store.Add(pod("ns", "a", "1", nil))
			_ = store.Add(pod("ns", "b", "1", nil))
			sink := &recordingSink{}
			a := &deltaApplier{store: store, handler: sink}
			if err := a.processBatch(batch, true); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(sink.got, "; "); got != want {
				t.Errorf("notifications %q, want %q", got, want)
			}
			if keys := fmt.Sprint(sorted(store.ListKeys())); keys != "[ns/a ns/new]" {
				t.Errorf("store keys %s", keys)
			}
		})
	}
}

func TestHandlerSink(t *testing.T) {
	var got []string
	sink := handlerSink{ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { got = append(got, "add "+describeObj(obj)) },
		UpdateFunc: func(o, n interface{}) { got = append(got, "update "+describeObj(o)+"->"+describeObj(n)) },
		DeleteFunc: func(obj interface{}) { got = append(got, "delete "+describeObj(obj)) },
	}}
	sink.add(pod("ns", "a", "1", nil), true)
	sink.update(pod("ns", "a", "1", nil), pod("ns", "a", "2", nil), false)
	sink.resyncAll([]interface{}{pod("ns", "a", "2", nil), pod("ns", "b", "1", nil)})
	sink.delete(pod("ns", "a", "2", nil))
	want := "add a@1, update a@1->a@2, update a@2->a@2, update b@1->b@1, delete a@2"
	if strings.Join(got, ", ") != want {
		t.Errorf("got %q\nwant %q", strings.Join(got, ", "), want)
	}
	if sameResourceVersion("not an object", pod("ns", "a", "1", nil)) || sameResourceVersion(pod("ns", "a", "1", nil), "x") {
		t.Error("objects without metadata have the same version")
	}
}

// flagLock is a sync.Locker that records whether it is held.
type flagLock struct{ held bool }

func (l *flagLock) Lock()   { l.held = true }
func (l *flagLock) Unlock() { l.held = false }

// lockSeeingSink records, for every notification, whether its lock was
// held.
type lockSeeingSink struct {
	lock *flagLock
	held []bool
}

func (s *lockSeeingSink) add(interface{}, bool)                 { s.held = append(s.held, s.lock.held) }
func (s *lockSeeingSink) update(interface{}, interface{}, bool) { s.held = append(s.held, s.lock.held) }
func (s *lockSeeingSink) delete(interface{})                    { s.held = append(s.held, s.lock.held) }
func (s *lockSeeingSink) resyncAll([]interface{})               { s.held = append(s.held, s.lock.held) }

// TestDeltaApplierHoldsItsLock: the applier's lock is held while each
// notification is sent and released when the pop is done.
func TestDeltaApplierHoldsItsLock(t *testing.T) {
	deltas := Deltas{{Added, pod("ns", "a", "1", nil)}, {Updated, pod("ns", "a", "2", nil)}, {Deleted, pod("ns", "a", "2", nil)}}
	tests := []struct {
		name  string
		apply func(a *deltaApplier) error
	}{
		{name: "process", apply: func(a *deltaApplier) error { return a.process(deltas, false) }},
		{name: "processBatch", apply: func(a *deltaApplier) error { return a.processBatch(deltas[:1], false) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lock := &flagLock{}
			sink := &lockSeeingSink{lock: lock}
			a := &deltaApplier{store: NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{}), handler: sink, lock: lock}
			if err := tc.apply(a); err != nil {
				t.Fatal(err)
			}
			if len(sink.held) == 0 {
				t.Fatal("no notification")
			}
			for i, held := range sink.held {
				if !held {
					t.Errorf("notification %d sent without the lock", i)
				}
			}
			if lock.held {
				t.Error("lock still held after the pop")
			}
		})
	}
}
