package cache

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	fcache "github.com/kubeclient/client-go/tools/cache/testing"
)

func TestControllerWithDeltaFIFO(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
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
		settled(t, "delete", func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 2 })
		cancel()
		<-done
		if strings.Join(seen, ",") != "Replaced,Deleted" || len(store.List()) != 0 {
			t.Errorf("seen %v, store %v", seen, store.ListKeys())
		}
		if !fifo.IsClosed() {
			t.Error("queue not closed when the controller stopped")
		}
	})
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
			synctest.Test(t, func(t *testing.T) {
				source := fcache.NewFakeControllerSource()
				defer source.Shutdown()
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
				settled(t, "sync", ctrl.HasSynced)
				source.Modify(pod("ns", "a", "", nil))
				source.Add(pod("ns", "b", "", nil))
				source.Delete(pod("ns", "a", "", nil))
				settled(t, "events", func() bool { mu.Lock(); defer mu.Unlock(); return len(events) == 4 })
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
		})
	}
}

func TestControllerReportsWatchErrors(t *testing.T) {
	for _, withContext := range []bool{false, true} {
		t.Run(fmt.Sprintf("withContext=%v", withContext), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
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
		})
	}
}

// TestControllerKeepsProcessingAfterErrors: an item whose processing fails
// is reported and the loop goes on with the next one.
func TestControllerKeepsProcessingAfterErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
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
		settled(t, "both items", func() bool { mu.Lock(); defer mu.Unlock(); return len(processed) == 2 })
		cancel()
		<-done
	})
}

func TestNewInformerDeliversEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		source.Add(pod("ns", "a", "", nil))
		log := &eventLog{}
		store, ctrl := NewTransformingIndexerInformer(source, &v1.Pod{}, 0, log, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go ctrl.RunWithContext(ctx)
		settled(t, "sync", ctrl.HasSynced)
		source.Modify(pod("ns", "a", "", map[string]string{"x": "y"}))
		source.Delete(pod("ns", "a", "", nil))
		settled(t, "events", func() bool { return len(log.snapshot()) == 3 })
		if got := strings.Join(log.snapshot(), ";"); got != "add a initial=true;update a;delete a" {
			t.Errorf("events = %s", got)
		}
		if len(store.List()) != 0 {
			t.Error("store not empty after delete")
		}
	})
}
