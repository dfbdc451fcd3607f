package sharding

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/util/workqueue"
)

// ReconcileFunc reconciles the object stored under key (namespace/name).
// obj is the informer's cached object, nil when the object is gone. ctx
// ends when this replica loses the object's slot: the function must then
// return promptly (within LeaseDuration - RenewDeadline), because another
// replica may start on the object after that. An error retries the key
// with the queue's rate limiter while the slot stays here.
type ReconcileFunc func(ctx context.Context, key string, obj runtime.Object) error

// ControllerConfig configures a Controller.
type ControllerConfig struct {
	// Member configures the ring membership. Its OnShardChange, when set,
	// is called after the controller applied a change: a lost slot's work
	// has stopped and its objects left the cache.
	Member MemberConfig

	// ListerWatcher lists and watches the whole resource; the controller
	// restricts it to this replica's slots (see ListWatch).
	ListerWatcher cache.ListerWatcher
	// ObjectType is an example object of the resource.
	ObjectType runtime.Object
	// Indexers are added to each informer.
	Indexers cache.Indexers
	// ResyncPeriod of the informer's handler; zero means none.
	ResyncPeriod time.Duration

	// Reconcile is called for every key of this replica's slots.
	Reconcile ReconcileFunc
	// Workers is the number of reconcile goroutines; zero means 2.
	Workers int
	// RateLimiter for retries; nil means the default controller limiter.
	RateLimiter workqueue.TypedRateLimiter[string]
	// Name names the workqueue (metrics); empty means Member.Ring.
	Name string
}

// Controller is a workqueue-driven controller whose replicas share one
// resource's objects through a ring (see the package documentation). Each
// replica caches and reconciles only the objects of its slots; when its
// slots change it drains the keys of the slots it loses and rebuilds its
// informer with its new selector.
//
// Run's goroutine starts the member loop (which calls onShardChange), the
// informer goroutine of the current generation and the workers, and waits
// for all of them. mu guards active, slotCtx, inFlight, keySlot and gen;
// cond (on mu) signals inFlight decrements.
type Controller struct {
	config ControllerConfig
	member *Member
	queue  workqueue.TypedRateLimitingInterface[string]
	mode   *modeState

	mu       sync.Mutex
	cond     *sync.Cond
	runCtx   context.Context // set by Run before the member starts
	active   slotSet
	slotCtx  map[int]slotContext
	inFlight map[int]int
	keySlot  map[string]int // key -> slot of the object last seen under it
	gen      *generation
}

type slotContext struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// generation is one informer, built for one selector.
type generation struct {
	informer cache.SharedIndexInformer // nil when no slot is active
	lw       *ListWatch
	cancel   context.CancelFunc
	done     chan struct{} // closed when the informer stopped
	synced   chan struct{} // closed once the informer synced
}

// NewController validates config and builds a controller that has not
// joined its ring yet.
func NewController(config ControllerConfig) (*Controller, error) {
	if config.ListerWatcher == nil || config.ObjectType == nil || config.Reconcile == nil {
		return nil, fmt.Errorf("sharding: ListerWatcher, ObjectType and Reconcile are required")
	}
	if config.Workers <= 0 {
		config.Workers = 2
	}
	if config.RateLimiter == nil {
		config.RateLimiter = workqueue.DefaultTypedControllerRateLimiter[string]()
	}
	if config.Name == "" {
		config.Name = config.Member.Ring
	}
	c := &Controller{
		config:   config,
		mode:     &modeState{},
		active:   slotSet{},
		slotCtx:  map[int]slotContext{},
		inFlight: map[int]int{},
		keySlot:  map[string]int{},
		gen:      idleGeneration(),
	}
	c.cond = sync.NewCond(&c.mu)
	userHook := config.Member.OnShardChange
	mc := config.Member
	mc.OnShardChange = func(ctx context.Context, s Shard) {
		c.onShardChange(ctx, s)
		if userHook != nil {
			userHook(ctx, s)
		}
	}
	m, err := NewMember(mc)
	if err != nil {
		return nil, err
	}
	c.member = m
	c.config.Member = m.config
	c.queue = workqueue.NewTypedRateLimitingQueueWithConfig(config.RateLimiter, workqueue.TypedRateLimitingQueueConfig[string]{Name: config.Name})
	return c, nil
}

func idleGeneration() *generation {
	return &generation{done: make(chan struct{}), synced: make(chan struct{})}
}

// Member returns the controller's ring member (Status).
func (c *Controller) Member() *Member { return c.member }

// Mode returns who filters the informer's objects, as last detected.
func (c *Controller) Mode() Mode { return Mode(c.mode.mode.Load()) }

// Indexer returns the current informer's cache, nil while no slot is
// active. It changes at every re-sharding.
func (c *Controller) Indexer() cache.Indexer {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen.informer == nil {
		return nil
	}
	return c.gen.informer.GetIndexer()
}

// Run joins the ring and reconciles until ctx ends; it then drains the
// workers, leaves the ring (deleting its Lease) and returns.
func (c *Controller) Run(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	c.mu.Lock()
	c.runCtx = ctx
	c.mu.Unlock()

	var wg sync.WaitGroup
	for range c.config.Workers {
		wg.Go(func() {
			for c.processNext() {
			}
		})
	}
	// The member returns after OnShardChange with no slots: every slot's
	// work has stopped and the informer is down.
	c.member.Run(ctx)
	c.queue.ShutDown()
	wg.Wait()
}

// onShardChange applies a new set of slots: it cancels the lost slots'
// work and waits for it, stops the informer (dropping its cache) and
// starts one for the new selector. Called on the member's goroutine.
func (c *Controller) onShardChange(ctx context.Context, s Shard) {
	next := newSlotSet(s.Slots)
	c.mu.Lock()
	lost := []int{}
	for slot := range c.active {
		if !next.has(slot) {
			lost = append(lost, slot)
			c.slotCtx[slot].cancel()
			delete(c.slotCtx, slot)
		}
	}
	for slot := range next {
		if !c.active.has(slot) {
			sctx, cancel := context.WithCancel(c.runCtx)
			c.slotCtx[slot] = slotContext{ctx: sctx, cancel: cancel}
		}
	}
	c.active = next
	for {
		busy := false
		for _, slot := range lost {
			busy = busy || c.inFlight[slot] > 0
		}
		if !busy {
			break
		}
		c.cond.Wait()
	}
	lostSet := newSlotSet(lost)
	for key, slot := range c.keySlot {
		if lostSet.has(slot) {
			delete(c.keySlot, key)
		}
	}
	old := c.gen
	c.gen = idleGeneration()
	var lw *ListWatch
	if len(s.Slots) > 0 {
		var err error
		lw, err = newListWatch(c.config.ListerWatcher, s.Selector, c.mode)
		if err != nil {
			// Cannot happen for a selector the member built.
			utilruntime.HandleErrorWithContext(ctx, err, "Building the sharded ListWatch")
		}
	}
	newGen := c.gen
	c.mu.Unlock()

	if old.cancel != nil {
		old.cancel()
		<-old.done
	}
	if lw != nil {
		c.start(newGen, lw)
	}
	klog.FromContext(ctx).V(2).Info("Shard changed", "slots", len(s.Slots), "lost", len(lost), "selector", s.Selector.String())
}

// start runs gen's informer over lw.
func (c *Controller) start(gen *generation, lw *ListWatch) {
	c.mu.Lock()
	runCtx := c.runCtx
	c.mu.Unlock()
	ctx, cancel := context.WithCancel(runCtx)
	informer := cache.NewSharedIndexInformer(lw, c.config.ObjectType, c.config.ResyncPeriod, c.config.Indexers)
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, obj any) { c.enqueue(obj) },
		DeleteFunc: c.enqueue,
	})
	if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Adding the sharded informer's handler")
	}
	c.mu.Lock()
	gen.informer = informer
	gen.lw = lw
	gen.cancel = cancel
	c.mu.Unlock()
	go func() {
		defer close(gen.done)
		informer.RunWithContext(ctx)
	}()
	go func() {
		if cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
			close(gen.synced)
		}
	}()
}

// enqueue records the slot of obj's key and queues the key.
func (c *Controller) enqueue(obj any) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	h, err := ObjectHash(obj, c.config.Member.Key)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.mu.Lock()
	c.keySlot[key] = SlotOf(h, c.config.Member.Slots)
	c.mu.Unlock()
	c.queue.Add(key)
}

// processNext reconciles one key; false when the queue shut down.
func (c *Controller) processNext() bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)

	c.mu.Lock()
	slot, known := c.keySlot[key]
	if !known || !c.active.has(slot) {
		c.mu.Unlock()
		c.queue.Forget(key)
		return true
	}
	sctx := c.slotCtx[slot].ctx
	c.inFlight[slot]++
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.inFlight[slot]--
		c.cond.Broadcast()
		c.mu.Unlock()
	}()

	indexer := c.waitSynced(sctx)
	if indexer == nil {
		c.queue.Forget(key) // the slot left this replica
		return true
	}
	item, exists, err := indexer.GetByKey(key)
	if err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	var obj runtime.Object
	if exists {
		obj, _ = item.(runtime.Object)
	}
	if err := c.config.Reconcile(sctx, key, obj); err != nil {
		if sctx.Err() == nil {
			utilruntime.HandleErrorWithContext(sctx, err, "Reconcile failed; retrying", "key", key)
			c.queue.AddRateLimited(key)
			return true
		}
	}
	c.queue.Forget(key)
	if !exists {
		c.mu.Lock()
		if c.keySlot[key] == slot {
			delete(c.keySlot, key)
		}
		c.mu.Unlock()
	}
	return true
}

// waitSynced returns the cache of the current informer once it synced, or
// nil when ctx ends first.
func (c *Controller) waitSynced(ctx context.Context) cache.Indexer {
	for {
		c.mu.Lock()
		gen := c.gen
		c.mu.Unlock()
		select {
		case <-gen.synced:
			return gen.informer.GetIndexer()
		case <-gen.done:
			// Replaced: look again.
		case <-ctx.Done():
			return nil
		}
	}
}
