package informers

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/kubernetes"
	listerscorev1 "github.com/kubeclient/client-go/listers/core/v1"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/util/workqueue"
)

// deletedMark is what the controller records for a key whose object its
// lister no longer holds.
const deletedMark = "(deleted)"

// soakController is a workqueue-driven controller over the ConfigMaps of a
// namespace: its informer's handlers queue keys, two workers take them and
// record the resourceVersion the lister holds for each (or deletedMark).
// It owns its factory and its workers; stop ends them and waits.
type soakController struct {
	factory informers.SharedInformerFactory
	lister  listerscorev1.ConfigMapNamespaceLister
	queue   workqueue.TypedRateLimitingInterface[string]
	synced  cache.InformerSynced
	workers sync.WaitGroup

	mu        sync.Mutex // guards processed and count
	processed map[string]string
	count     int
}

func newSoakController(cfg *rest.Config, ns string) (*soakController, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	cms := factory.Core().V1().ConfigMaps()
	c := &soakController{
		factory:   factory,
		lister:    cms.Lister().ConfigMaps(ns),
		queue:     workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		processed: map[string]string{},
	}
	enqueue := func(obj any) {
		key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err == nil {
			c.queue.Add(key)
		}
	}
	reg, err := cms.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
		DeleteFunc: enqueue,
	})
	if err != nil {
		return nil, err
	}
	c.synced = reg.HasSynced
	return c, nil
}

// start starts the informer and two workers; they run until stop.
func (c *soakController) start(ctx context.Context) {
	c.factory.Start(ctx.Done())
	for range 2 {
		c.workers.Add(1)
		go func() {
			defer c.workers.Done()
			for c.processNext() {
			}
		}()
	}
}

// processNext handles one key; it returns false once the queue is shut
// down.
func (c *soakController) processNext() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	_, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		c.queue.Forget(key)
		return true
	}
	state := deletedMark
	cm, err := c.lister.Get(name)
	switch {
	case err == nil:
		state = cm.ResourceVersion
	case !apierrors.IsNotFound(err):
		c.queue.AddRateLimited(key)
		return true
	}
	c.mu.Lock()
	c.processed[name] = state
	c.count++
	c.mu.Unlock()
	c.queue.Forget(key)
	return true
}

// stop shuts the queue down, waits for the workers and the informer.
func (c *soakController) stop() {
	c.queue.ShutDown()
	c.workers.Wait()
	c.factory.Shutdown()
}

// waitProcessed polls until the queue is empty and the controller's last
// processed state of every name is want's (deletedMark for names in
// everCreated missing from want); it returns the remaining differences.
func (c *soakController) waitProcessed(ctx context.Context, want map[string]objState, everCreated []string, timeout time.Duration) []string {
	var diffs []string
	wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		diffs = nil
		c.mu.Lock()
		processed := maps.Clone(c.processed)
		c.mu.Unlock()
		for _, name := range slices.Sorted(maps.Keys(want)) {
			if got := processed[name]; got != want[name].RV {
				diffs = append(diffs, fmt.Sprintf("%s: processed %q, final rv %s", name, got, want[name].RV))
			}
		}
		for _, name := range everCreated {
			if _, exists := want[name]; exists {
				continue
			}
			if got, seen := processed[name]; seen && got != deletedMark {
				diffs = append(diffs, fmt.Sprintf("%s: processed %q, but it was deleted", name, got))
			}
		}
		if n := c.queue.Len(); n > 0 {
			diffs = append(diffs, fmt.Sprintf("%d keys still queued", n))
		}
		return len(diffs) == 0, nil
	})
	return diffs
}
