package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	coreinformers "github.com/kubeclient/client-go/informers/core/v1"
	"github.com/kubeclient/client-go/kubernetes"
	corelisters "github.com/kubeclient/client-go/listers/core/v1"
	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/tools/record"
	"github.com/kubeclient/client-go/util/workqueue"
)

// maxRetries is how often a key is retried, with growing delays, before the
// controller gives up on it until its next change.
const maxRetries = 8

// Controller reconciles input ConfigMaps into status ConfigMaps.
//
// The informer's goroutines (owned by the factory) only enqueue keys; the
// workers started by Run are the only code that writes to the cluster. The
// counters are atomics so Stats can be read while workers run.
type Controller struct {
	client   kubernetes.Interface
	lister   corelisters.ConfigMapLister
	synced   cache.InformerSynced
	queue    workqueue.TypedRateLimitingInterface[string]
	recorder record.EventRecorder

	logMu sync.Mutex // guards out
	out   io.Writer

	reconciled atomic.Int64 // reconciles that changed the cluster
	unchanged  atomic.Int64 // reconciles that found nothing to do
	retries    atomic.Int64 // failed reconciles that were requeued
	dropped    atomic.Int64 // keys given up after maxRetries

	observerMu sync.Mutex            // guards observer
	observer   func(string, Outcome) // called after every successful reconcile
}

// NewController wires a controller to a ConfigMap informer. It registers its
// event handlers; the caller starts the informer's factory.
func NewController(client kubernetes.Interface, configMaps coreinformers.ConfigMapInformer, recorder record.EventRecorder, out io.Writer) (*Controller, error) {
	c := &Controller{
		client:   client,
		lister:   configMaps.Lister(),
		synced:   configMaps.Informer().HasSynced,
		recorder: recorder,
		out:      out,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.NewTypedItemExponentialFailureRateLimiter[string](50*time.Millisecond, 5*time.Second),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "demo-controller"},
		),
	}
	_, err := configMaps.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueueFor,
		UpdateFunc: func(_, obj any) { c.enqueueFor(obj) },
		DeleteFunc: c.enqueueFor,
	})
	if err != nil {
		return nil, fmt.Errorf("registering event handler: %w", err)
	}
	return c, nil
}

// enqueueFor queues the input an informer event concerns: the object itself
// when it is an input, its owner when it is a status object.
func (c *Controller) enqueueFor(obj any) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok {
		return
	}
	switch {
	case isInput(cm):
		c.queue.Add(cm.Namespace + "/" + cm.Name)
	case cm.Labels[DerivedFromLabel] != "":
		if owner := inputOf(cm); owner != "" {
			c.queue.Add(cm.Namespace + "/" + owner)
		}
	}
}

// SetObserver installs fn to be called after each successful reconcile.
func (c *Controller) SetObserver(fn func(key string, outcome Outcome)) {
	c.observerMu.Lock()
	defer c.observerMu.Unlock()
	c.observer = fn
}

// Run waits for the cache, then runs workers until ctx is done. It shuts the
// queue down and waits for the workers before returning.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer c.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), c.synced) {
		return fmt.Errorf("waiting for the ConfigMap cache: %w", context.Cause(ctx))
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for c.processNext(ctx) {
			}
		})
	}
	<-ctx.Done()
	c.queue.ShutDown()
	wg.Wait()
	return nil
}

// processNext handles one key; it returns false once the queue shuts down.
func (c *Controller) processNext(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)

	outcome, err := c.reconcile(ctx, key)
	if err == nil {
		c.queue.Forget(key)
		switch outcome {
		case OutcomeUnchanged, OutcomeGone:
			c.unchanged.Add(1)
		default:
			c.reconciled.Add(1)
			c.logf("controller: %s %s", key, describe(outcome, key))
		}
		c.observerMu.Lock()
		observer := c.observer
		c.observerMu.Unlock()
		if observer != nil {
			observer(key, outcome)
		}
		return true
	}
	if ctx.Err() != nil {
		return true
	}
	if c.queue.NumRequeues(key) < maxRetries {
		c.retries.Add(1)
		c.logf("controller: %s retry %d: %v", key, c.queue.NumRequeues(key)+1, err)
		c.queue.AddRateLimited(key)
		return true
	}
	c.dropped.Add(1)
	c.queue.Forget(key)
	utilruntime.HandleErrorWithContext(ctx, err, "Giving up on key", "key", key)
	c.logf("controller: %s dropped after %d retries: %v", key, maxRetries, err)
	return true
}

func describe(outcome Outcome, key string) string {
	switch outcome {
	case OutcomeCreated:
		return "-> created status object"
	case OutcomeUpdated:
		return "-> updated status object"
	case OutcomeDeleted:
		return "-> input gone, deleted status object"
	case OutcomeInvalid:
		return "-> invalid input, recorded a Warning event"
	}
	return string(outcome)
}

func (c *Controller) logf(format string, args ...any) {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintf(c.out, format+"\n", args...)
}

// Stats is a snapshot of the controller's counters.
type Stats struct {
	Reconciled, Unchanged, Retries, Dropped int64
}

// Stats returns the counters so far.
func (c *Controller) Stats() Stats {
	return Stats{
		Reconciled: c.reconciled.Load(),
		Unchanged:  c.unchanged.Load(),
		Retries:    c.retries.Load(),
		Dropped:    c.dropped.Load(),
	}
}
