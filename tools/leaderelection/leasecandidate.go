package leaderelection

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"time"

	v1 "k8s.io/api/coordination/v1"
	v1beta1 "k8s.io/api/coordination/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/kubernetes"
	coordinationv1beta1client "github.com/kubeclient/client-go/kubernetes/typed/coordination/v1beta1"
	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/util/workqueue"
)

// candidateRenewInterval is how often a LeaseCandidate renews itself when
// the API server does not ask for it earlier.
const candidateRenewInterval = 5 * time.Minute

// candidateResync is the resync period of the candidate's informer.
const candidateResync = 5 * time.Minute

// CacheSyncWaiter waits for the caches of started informers to sync and
// reports, per object type, whether each did.
type CacheSyncWaiter interface {
	WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool
}

// LeaseCandidate keeps a coordination.k8s.io/v1beta1 LeaseCandidate object
// alive for coordinated leader election: it creates the object, renews it
// periodically, and renews it at once when the API server pings it (sets
// PingTime after RenewTime).
type LeaseCandidate struct {
	client   coordinationv1beta1client.LeaseCandidateInterface
	informer cache.SharedIndexInformer
	synced   *informerSync
	// queue carries a single key: "ensure the candidate is fresh".
	queue workqueue.TypedRateLimitingInterface[int]

	name      string
	namespace string
	leaseName string

	clock clock.Clock

	binaryVersion, emulationVersion string
	strategy                        v1.CoordinatedLeaseStrategy
}

// informerSync is the CacheSyncWaiter of a LeaseCandidate's informer; it
// waits only once the informer has been started by Run.
type informerSync struct {
	mu      sync.Mutex // guards started
	started bool
	synced  cache.InformerSynced
}

func (s *informerSync) markStarted() {
	s.mu.Lock()
	s.started = true
	s.mu.Unlock()
}

// WaitForCacheSync waits for the candidate informer's cache when it has
// been started; otherwise it returns an empty map.
func (s *informerSync) WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool {
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	result := map[reflect.Type]bool{}
	if started {
		result[reflect.TypeOf(&v1beta1.LeaseCandidate{})] = cache.WaitForCacheSync(stopCh, s.synced)
	}
	return result
}

// NewCandidate returns a LeaseCandidate that will maintain the
// LeaseCandidate candidateNamespace/candidateName for targetLease, and a
// waiter for its informer cache. Coordinated leader election is alpha: the
// CoordinatedLeaderElection feature gate must be on in the API server.
func NewCandidate(clientset kubernetes.Interface,
	candidateNamespace string,
	candidateName string,
	targetLease string,
	binaryVersion, emulationVersion string,
	strategy v1.CoordinatedLeaseStrategy,
) (*LeaseCandidate, CacheSyncWaiter, error) {
	if clientset == nil {
		return nil, nil, fmt.Errorf("NewCandidate: clientset must not be nil")
	}
	if candidateName == "" {
		return nil, nil, fmt.Errorf("NewCandidate: candidateName must not be empty")
	}
	client := clientset.CoordinationV1beta1().LeaseCandidates(candidateNamespace)
	selector := fields.OneTermEqualSelector("metadata.name", candidateName).String()
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			opts.FieldSelector = selector
			return client.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.FieldSelector = selector
			return client.Watch(ctx, opts)
		},
	}
	informer := cache.NewSharedIndexInformer(cache.ToListWatcherWithWatchListSemantics(lw, clientset), &v1beta1.LeaseCandidate{}, candidateResync, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})

	// One queue key (0) stands for "write our LeaseCandidate now".
	queue := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[int](), workqueue.TypedRateLimitingQueueConfig[int]{Name: "leasecandidate"})
	lc := &LeaseCandidate{
		client: client, informer: informer, queue: queue, clock: clock.RealClock{},
		name: candidateName, namespace: candidateNamespace, leaseName: targetLease,
		binaryVersion: binaryVersion, emulationVersion: emulationVersion, strategy: strategy,
	}

	reg, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, newObj interface{}) {
			cand, ok := newObj.(*v1beta1.LeaseCandidate)
			if !ok || cand.Spec.PingTime == nil {
				return
			}
			if cand.Spec.RenewTime == nil || cand.Spec.PingTime.After(cand.Spec.RenewTime.Time) {
				lc.queue.Add(0)
			}
		},
	})
	if err != nil {
		return nil, nil, err
	}
	lc.synced = &informerSync{synced: reg.HasSynced}
	return lc, lc.synced, nil
}

// Run maintains the LeaseCandidate until ctx ends.
func (c *LeaseCandidate) Run(ctx context.Context) {
	logger := klog.LoggerWithName(klog.FromContext(ctx), "leasecandidate")
	ctx = klog.NewContext(ctx, logger)

	var wg sync.WaitGroup
	defer func() {
		c.queue.ShutDown()
		wg.Wait()
	}()

	wg.Add(1)
	go func() {
		defer wg.Done()
		c.informer.RunWithContext(ctx)
	}()
	c.synced.markStarted()
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.synced.synced) {
		return
	}

	c.queue.Add(0)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for c.processNextWorkItem(ctx) {
		}
	}()
	<-ctx.Done()
}

func (c *LeaseCandidate) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.ensureLease(ctx); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Ensuring lease failed")
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	c.queue.AddAfter(key, candidateRenewInterval)
	return true
}

// ensureLease creates the candidate object or renews its RenewTime.
func (c *LeaseCandidate) ensureLease(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	key := c.name
	if c.namespace != "" {
		key = c.namespace + "/" + c.name
	}
	obj, exists, err := c.informer.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	now := &metav1.MicroTime{Time: c.clock.Now()}
	if !exists {
		logger.V(2).Info("Creating lease candidate")
		cand := &v1beta1.LeaseCandidate{
			ObjectMeta: metav1.ObjectMeta{Name: c.name, Namespace: c.namespace},
			Spec: v1beta1.LeaseCandidateSpec{
				LeaseName:        c.leaseName,
				BinaryVersion:    c.binaryVersion,
				EmulationVersion: c.emulationVersion,
				Strategy:         c.strategy,
				RenewTime:        now,
			},
		}
		// AlreadyExists means the informer has not caught up yet; the
		// returned error requeues the key and the next try renews.
		_, err := c.client.Create(ctx, cand, metav1.CreateOptions{})
		return err
	}
	cand, ok := obj.(*v1beta1.LeaseCandidate)
	if !ok {
		return fmt.Errorf("unexpected object of type %T in the lease candidate cache", obj)
	}
	logger.V(2).Info("Lease candidate exists. Renewing.")
	renewed := cand.DeepCopy()
	renewed.Spec.RenewTime = now
	_, err = c.client.Update(ctx, renewed, metav1.UpdateOptions{})
	return err
}
