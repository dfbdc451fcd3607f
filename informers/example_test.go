package informers_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/kubernetes/fake"
	corelisters "github.com/kubeclient/client-go/listers/core/v1"
	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/util/workqueue"
)

// controller is the usual shape of a Kubernetes controller: an informer's
// event handlers put the keys of changed objects on a rate-limited
// workqueue, and a worker takes keys off the queue and reconciles each
// from the informer's cache through a lister.
type controller struct {
	lister corelisters.ConfigMapLister
	queue  workqueue.TypedRateLimitingInterface[string]
	// done receives a line for each key reconciled; the example reads it.
	done chan<- string
	// failed holds the keys whose first reconcile failed on purpose, to
	// show a retry. Only the worker goroutine touches it.
	failed map[string]bool
}

func (c *controller) enqueue(obj any) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err == nil {
		c.queue.Add(key)
	}
}

// runWorker reconciles keys until the queue shuts down.
func (c *controller) runWorker() {
	for {
		key, shutdown := c.queue.Get()
		if shutdown {
			return
		}
		if err := c.reconcile(key); err != nil {
			c.queue.AddRateLimited(key) // retried after a growing delay
		} else {
			c.queue.Forget(key) // resets the key's delay
		}
		c.queue.Done(key)
	}
}

func (c *controller) reconcile(key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil // a key that cannot be parsed is never retried
	}
	cm, err := c.lister.ConfigMaps(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil // deleted since it was queued
	}
	if err != nil {
		return err
	}
	if cm.Data["flaky"] == "true" && !c.failed[key] {
		c.failed[key] = true
		return errors.New("transient failure")
	}
	c.done <- fmt.Sprintf("%s reconciled after %d retries", key, c.queue.NumRequeues(key))
	return nil
}

// A controller with a shared informer, its lister and a rate-limited
// workqueue, run against the fake clientset.
func Example_controller() {
	ctx, cancel := context.WithCancel(context.Background())
	clientset := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(clientset, 0)
	configMaps := factory.Core().V1().ConfigMaps()

	done := make(chan string)
	c := &controller{
		lister: configMaps.Lister(),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "configmaps"}),
		done:   done,
		failed: map[string]bool{},
	}
	_, err := configMaps.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, obj any) { c.enqueue(obj) },
	})
	if err != nil {
		panic(err)
	}

	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	var workers sync.WaitGroup
	workers.Go(c.runWorker)

	for _, name := range []string{"a", "b", "c"} {
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			Data:       map[string]string{"flaky": fmt.Sprint(name == "b")},
		}
		if _, err := clientset.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			panic(err)
		}
	}
	// The retry of b may come before or after c: sort the lines.
	var lines []string
	for range 3 {
		lines = append(lines, <-done)
	}
	slices.Sort(lines)
	for _, line := range lines {
		fmt.Println(line)
	}

	// Stop the worker, then the informers.
	c.queue.ShutDown()
	workers.Wait()
	cancel()
	factory.Shutdown()
	// Output:
	// default/a reconciled after 0 retries
	// default/b reconciled after 1 retries
	// default/c reconciled after 0 retries
}
