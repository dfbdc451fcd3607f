package sharding

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes/fake"
	"github.com/kubeclient/client-go/tools/cache"
)

// TestShardChangeDrainsLostSlot checks the loser's side of a hand-over in
// a synctest bubble: when a slot leaves the controller, onShardChange
// (after which the member's Lease stops claiming the slot) returns only
// once the slot's running reconcile has returned, and the slot's object
// has left the cache.
func TestShardChangeDrainsLostSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const total = 4
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "x", UID: k8stypes.UID("uid-x")}}
		slot := SlotOf(Hash("uid-x"), total)
		client := fake.NewClientset(cm)
		cms := client.CoreV1().ConfigMaps("ns")

		started, release := make(chan struct{}), make(chan struct{})
		var mu sync.Mutex
		returned := false
		var once sync.Once
		c, err := NewController(ControllerConfig{
			Member: MemberConfig{Client: client.CoordinationV1(), Namespace: "ns", Ring: "r", Identity: "a", Slots: total},
			ListerWatcher: cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
				ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
					return cms.List(ctx, o)
				},
				WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
					return cms.Watch(ctx, o)
				},
			}, client),
			ObjectType: &corev1.ConfigMap{},
			Workers:    1,
			Reconcile: func(ctx context.Context, key string, obj runtime.Object) error {
				if obj == nil {
					return nil
				}
				once.Do(func() { close(started) })
				<-ctx.Done()
				<-release
				mu.Lock()
				returned = true
				mu.Unlock()
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		c.runCtx = ctx
		all := []int{0, 1, 2, 3}
		var workers sync.WaitGroup
		workers.Go(func() {
			for c.processNext() {
			}
		})
		c.onShardChange(ctx, Shard{Slots: all, Total: total, Selector: SlotsSelector(KeyUID, all, total)})
		<-started

		var rest []int
		for _, s := range all {
			if s != slot {
				rest = append(rest, s)
			}
		}
		done := make(chan struct{})
		go func() {
			c.onShardChange(ctx, Shard{Slots: rest, Total: total, Selector: SlotsSelector(KeyUID, rest, total)})
			close(done)
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("the shard change returned while a reconcile of the lost slot was still running")
		default:
		}
		close(release)
		<-done
		mu.Lock()
		if !returned {
			t.Error("the reconcile had not returned")
		}
		mu.Unlock()
		if _, exists, _ := c.Indexer().GetByKey("ns/x"); exists {
			t.Error("the lost slot's object is still cached")
		}

		c.onShardChange(ctx, Shard{Total: total})
		c.queue.ShutDown()
		workers.Wait()
	})
}
