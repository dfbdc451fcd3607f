// Command workqueue shows the informer + workqueue pattern at its smallest:
// an informer fills a cache and queues the keys of pods that change, and one
// worker takes keys off a rate-limited queue and reports each pod's current
// state from the cache, retrying failures with growing delays.
//
//	go run ./examples/workqueue -kubeconfig ~/.kube/config -namespace default
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/tools/clientcmd"
	"github.com/kubeclient/client-go/util/homedir"
	"github.com/kubeclient/client-go/util/workqueue"
)

func main() {
	defaultKubeconfig := ""
	if home := homedir.HomeDir(); home != "" {
		defaultKubeconfig = filepath.Join(home, ".kube", "config")
	}
	kubeconfig := flag.String("kubeconfig", defaultKubeconfig, "path to a kubeconfig file")
	namespace := flag.String("namespace", "default", "namespace whose pods to follow")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "workqueue:", err)
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, "workqueue:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(*namespace))
	w, err := newPodWatcher(factory.Core().V1().Pods().Informer(), os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "workqueue:", err)
		os.Exit(1)
	}
	factory.Start(ctx.Done())
	w.run(ctx)
	factory.Shutdown()
}

// podWatcher reports pod changes. The informer's goroutine only queues keys;
// the worker in run is the only reader of the queue.
type podWatcher struct {
	informer cache.SharedIndexInformer
	queue    workqueue.TypedRateLimitingInterface[string]
	out      io.Writer
	// report is the per-key work; a test may replace it to inject failures.
	report func(key string) error
}

func newPodWatcher(informer cache.SharedIndexInformer, out io.Writer) (*podWatcher, error) {
	w := &podWatcher{
		informer: informer,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "pods"}),
		out: out,
	}
	w.report = w.reportPod
	enqueue := func(obj any) {
		if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			w.queue.Add(key)
		}
	}
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
		DeleteFunc: enqueue,
	})
	return w, err
}

// reportPod prints the cached state of the pod named by key.
func (w *podWatcher) reportPod(key string) error {
	obj, exists, err := w.informer.GetIndexer().GetByKey(key)
	if err != nil {
		return err
	}
	if !exists {
		fmt.Fprintf(w.out, "pod %s deleted\n", key)
		return nil
	}
	pod := obj.(*corev1.Pod)
	fmt.Fprintf(w.out, "pod %s phase=%s\n", key, pod.Status.Phase)
	return nil
}

// processNext handles one key; it returns false when the queue shuts down.
func (w *podWatcher) processNext() bool {
	key, shutdown := w.queue.Get()
	if shutdown {
		return false
	}
	defer w.queue.Done(key)
	err := w.report(key)
	switch {
	case err == nil:
		w.queue.Forget(key)
	case w.queue.NumRequeues(key) < 5:
		fmt.Fprintf(w.out, "retrying %s: %v\n", key, err)
		w.queue.AddRateLimited(key)
	default:
		fmt.Fprintf(w.out, "giving up on %s: %v\n", key, err)
		w.queue.Forget(key)
	}
	return true
}

// run waits for the cache and works until ctx is done.
func (w *podWatcher) run(ctx context.Context) {
	defer w.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), w.informer.HasSynced) {
		return
	}
	go func() {
		<-ctx.Done()
		w.queue.ShutDown()
	}()
	for w.processNext() {
	}
}
