package cache

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	fcache "github.com/kubeclient/client-go/tools/cache/testing"
)

func TestControllerWithDeltaFIFO(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	store := NewStore(DeletionHandlingMetaNamespaceKeyFunc)
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: store, EmitDeltaTypeReplaced: true})
	var mu sync.Mutex
	var seen []string
	ctrl := New(&Config{
		Queue:         fifo,
		ListerWatcher: source,
		ObjectType:    &v1.Pod{},
		Process: func(obj interface{}, _ bool) error {
			for _, d := range obj.(Deltas) {
				mu.Lock()
				seen = append(seen, string(d.Type))
				mu.Unlock()
				var err error
				if d.Type == Deleted {
					err = store.Delete(d.Object)
				} else {
					err = store.Update(d.Object)
				}
				if err != nil {
					return err
				}
			}
			return nil
		},
	})
	if ctrl.LastSyncResourceVersion() != "" {
		t.Error("LastSyncResourceVersion before Run")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); ctrl.RunWithContext(ctx) }()
	if !WaitFor(ctx, "", ctrl.HasSyncedChecker()) || !ctrl.HasSynced() {
		t.Fatal("controller did not sync")
	}
	source.Delete(pod("ns", "a", "", nil))
	waitUntil(t, "delete", func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 2 })
	cancel()
	<-done
	if strings.Join(seen, ",") != "Replaced,Deleted" || len(store.List()) != 0 {
		t.Errorf("seen %v, store %v", seen, store.ListKeys())
	}
	if !fifo.IsClosed() {
		t.Error("queue not closed when the controller stopped")
	}
}

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

// TestInformerConstructors runs every deprecated constructor and the
// options form against the same source: each keeps its store filled and
// notifies its handler, with the transform and indexers it was given.
func TestInformerConstructors(t *testing.T) {
	transform := func(obj interface{}) (interface{}, error) {
		p := obj.(*v1.Pod).DeepCopy()
		p.Labels = map[string]string{"transformed": "yes"}
		return p, nil
	}
	byNamespace := Indexers{NamespaceIndex: MetaNamespaceIndexFunc}
	tests := []struct {
		name          string
		build         func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller)
		wantTransform bool
		wantIndex     bool
	}{
		{name: "NewInformer", build: func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewInformer(lw, &v1.Pod{}, 0, h)
		}},
		{name: "NewIndexerInformer", wantIndex: true, build: func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewIndexerInformer(lw, &v1.Pod{}, 0, h, byNamespace)
		}},
		{name: "NewTransformingInformer", wantTransform: true, build: func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewTransformingInformer(lw, &v1.Pod{}, 0, h, transform)
		}},
		{name: "NewTransformingIndexerInformer", wantTransform: true, wantIndex: true, build: func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewTransformingIndexerInformer(lw, &v1.Pod{}, 0, h, byNamespace, transform)
		}},
		{name: "NewInformerWithOptions", wantTransform: true, wantIndex: true, build: func(lw ListerWatcher, h ResourceEventHandler) (Store, Controller) {
			return NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: &v1.Pod{}, Handler: h, Indexers: byNamespace, Transform: transform})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			source := fcache.NewFakeControllerSource()
			source.Add(pod("ns", "a", "", nil))
			var mu sync.Mutex
			var events []string
			record := func(format string, args ...interface{}) {
				mu.Lock()
				defer mu.Unlock()
				events = append(events, fmt.Sprintf(format, args...))
			}
			h := ResourceEventHandlerFuncs{
				AddFunc:    func(obj interface{}) { record("add %s", obj.(*v1.Pod).Name) },
				UpdateFunc: func(_, obj interface{}) { record("update %s", obj.(*v1.Pod).Name) },
				DeleteFunc: func(obj interface{}) { record("delete %s", obj.(*v1.Pod).Name) },
			}
			store, ctrl := tc.build(source, h)
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() { defer close(done); ctrl.Run(stop) }()
			defer func() { close(stop); <-done }()
			waitUntil(t, "sync", ctrl.HasSynced)
			source.Modify(pod("ns", "a", "", nil))
			source.Add(pod("ns", "b", "", nil))
			source.Delete(pod("ns", "a", "", nil))
			waitUntil(t, "events", func() bool { mu.Lock(); defer mu.Unlock(); return len(events) == 4 })
			mu.Lock()
			if got := strings.Join(events, ", "); got != "add a, update a, add b, delete a" {
				t.Errorf("events %q", got)
			}
			mu.Unlock()
			obj, ok, _ := store.GetByKey("ns/b")
			if !ok || isTransformed(obj) != tc.wantTransform {
				t.Errorf("ns/b = %v (transform expected: %v)", obj, tc.wantTransform)
			}
			if ctrl.LastSyncResourceVersion() == "" {
				t.Error("no resource version")
			}
			if indexer, ok := store.(Indexer); ok {
				keys, err := indexer.IndexKeys(NamespaceIndex, "ns")
				if tc.wantIndex && (err != nil || len(keys) != 1) {
					t.Errorf("namespace index: %v %v", keys, err)
				}
			}
		})
	}
}

func TestControllerReportsWatchErrors(t *testing.T) {
	for _, withContext := range []bool{false, true} {
		t.Run(fmt.Sprintf("withContext=%v", withContext), func(t *testing.T) {
			lw := &scriptedLW{noWatchList: true,
				list:  func(int, metav1.ListOptions) (runtime.Object, error) { return nil, errors.New("server down") },
				watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
			}
			reported := make(chan error, 10)
			cfg := &Config{
				Queue:         NewDeltaFIFOWithOptions(DeltaFIFOOptions{}),
				ListerWatcher: lw,
				ObjectType:    &v1.Pod{},
				Process:       func(interface{}, bool) error { return nil },
			}
			if withContext {
				cfg.WatchErrorHandlerWithContext = func(_ context.Context, _ *Reflector, err error) { reported <- err }
			} else {
				cfg.WatchErrorHandler = func(_ *Reflector, err error) { reported <- err }
			}
			ctrl := New(cfg)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); ctrl.RunWithContext(ctx) }()
			select {
			case err := <-reported:
				if !strings.Contains(err.Error(), "server down") {
					t.Errorf("reported %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no error reported")
			}
			if ctrl.HasSynced() {
				t.Error("synced without a list")
			}
			cancel()
			<-done
		})
	}
}

// TestControllerKeepsProcessingAfterErrors: an item whose processing fails
// is reported and the loop goes on with the next one.
func TestControllerKeepsProcessingAfterErrors(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	source.Add(pod("ns", "b", "", nil))
	var mu sync.Mutex
	var processed []string
	ctrl := New(&Config{
		Queue:         NewDeltaFIFOWithOptions(DeltaFIFOOptions{}),
		ListerWatcher: source,
		ObjectType:    &v1.Pod{},
		Process: func(obj interface{}, _ bool) error {
			mu.Lock()
			defer mu.Unlock()
			processed = append(processed, obj.(Deltas).Newest().Object.(*v1.Pod).Name)
			return errors.New("handler failed")
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); ctrl.RunWithContext(ctx) }()
	waitUntil(t, "both items", func() bool { mu.Lock(); defer mu.Unlock(); return len(processed) == 2 })
	cancel()
	<-done
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

func TestNewInformerDeliversEvents(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	log := &eventLog{}
	store, ctrl := NewTransformingIndexerInformer(source, &v1.Pod{}, 0, log, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ctrl.RunWithContext(ctx)
	waitUntil(t, "sync", ctrl.HasSynced)
	source.Modify(pod("ns", "a", "", map[string]string{"x": "y"}))
	source.Delete(pod("ns", "a", "", nil))
	waitUntil(t, "events", func() bool { return len(log.snapshot()) == 3 })
	if got := strings.Join(log.snapshot(), ";"); got != "add a initial=true;update a;delete a" {
		t.Errorf("events = %s", got)
	}
	if len(store.List()) != 0 {
		t.Error("store not empty after delete")
	}
}
