package sharding

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes/fake"
	"github.com/kubeclient/client-go/tools/cache"
)

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestControllerFallback runs two replicas against a fake clientset, which
// ignores shard selectors as a server without the feature gate does: both
// detect the fallback, each caches and stamps only the ConfigMaps of its
// slots, and when one leaves the other takes everything.
func TestControllerFallback(t *testing.T) {
	const n = 120
	var objs []runtime.Object
	for i := range n {
		objs = append(objs, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns", Name: fmt.Sprintf("cm-%d", i), UID: k8stypes.UID(fmt.Sprintf("uid-%d", i)),
		}})
	}
	client := fake.NewClientset(objs...)
	cms := client.CoreV1().ConfigMaps("ns")

	var mu sync.Mutex
	stamps := map[string]string{} // ConfigMap name -> replica that reconciled it last
	reconcilers := map[string]map[string]bool{}

	start := func(ctx context.Context, id string) (*Controller, chan struct{}) {
		lw := cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				return cms.List(ctx, o)
			},
			WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
				return cms.Watch(ctx, o)
			},
		}, client)
		c, err := NewController(ControllerConfig{
			Member: MemberConfig{
				Client: client.CoordinationV1(), Namespace: "ns", Ring: "r", Identity: id, Slots: 16,
				LeaseDuration: 600 * time.Millisecond, RenewDeadline: 400 * time.Millisecond, RetryPeriod: 50 * time.Millisecond,
			},
			ListerWatcher: lw,
			ObjectType:    &corev1.ConfigMap{},
			Reconcile: func(ctx context.Context, key string, obj runtime.Object) error {
				if obj == nil {
					return nil
				}
				cm := obj.(*corev1.ConfigMap)
				mu.Lock()
				defer mu.Unlock()
				stamps[cm.Name] = id
				if reconcilers[id] == nil {
					reconcilers[id] = map[string]bool{}
				}
				reconcilers[id][cm.Name] = true
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			c.Run(ctx)
		}()
		return c, done
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctxA, cancelA := context.WithCancel(ctx)
	a, doneA := start(ctxA, "a")
	b, doneB := start(ctx, "b")
	defer func() { cancel(); <-doneB }()

	converged := func(live ...string) func() bool {
		assignment := Assign(live, 16)
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			for i := range n {
				if stamps[fmt.Sprintf("cm-%d", i)] != assignment.Owners[SlotOf(Hash(fmt.Sprintf("uid-%d", i)), 16)] {
					return false
				}
			}
			return true
		}
	}
	waitFor(t, "both replicas to stamp their shares", 20*time.Second, converged("a", "b"))
	for _, c := range []*Controller{a, b} {
		if c.Mode() != ModeClient {
			t.Errorf("mode %v, want client", c.Mode())
		}
		active := c.Member().Status().Active
		idx := c.Indexer()
		if idx == nil {
			t.Fatal("no cache")
		}
		for _, obj := range idx.List() {
			cm := obj.(*corev1.ConfigMap)
			if !slices.Contains(active, SlotOf(Hash(string(cm.UID)), 16)) {
				t.Errorf("cache holds %s outside the replica's slots", cm.Name)
			}
		}
		if got := len(idx.List()); got == 0 || got == n {
			t.Errorf("cache holds %d of %d objects", got, n)
		}
	}
	mu.Lock()
	for id, names := range reconcilers {
		for name := range names {
			for other, otherNames := range reconcilers {
				if other != id && otherNames[name] {
					t.Errorf("%s reconciled by %s and %s before any change", name, id, other)
				}
			}
		}
	}
	mu.Unlock()

	cancelA()
	<-doneA
	waitFor(t, "b to take everything", 20*time.Second, converged("b"))
	if got := len(b.Indexer().List()); got != n {
		t.Errorf("b caches %d objects, want %d", got, n)
	}
}
