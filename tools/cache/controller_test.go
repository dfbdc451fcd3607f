package cache

import (
	"context"
	"strings"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"

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
