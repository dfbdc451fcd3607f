package compat

import (
	"context"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/tools/cache"
)

// README: "Informers share what repeats across cached objects ... Cached
// objects are reflect.DeepEqual to what client-go would cache ... DeepCopy
// returns a fully private copy".

// TestInformerObjectsAndDeepCopy: a controller reads two pods with equal
// labels from a lister, deep-copies one and changes the copy's labels (as
// client-go's contract asks before writing). The cached objects equal what
// the server sent, and the change reaches neither of them.
func TestInformerObjectsAndDeepCopy(t *testing.T) {
	a, b := testPod("a", "10"), testPod("b", "10")
	client := (&podServer{pods: []*corev1.Pod{a, b}, listRV: "10"}).start(t)
	factory := informers.NewSharedInformerFactory(client, 0)
	podInformer := factory.Core().V1().Pods()
	informer := podInformer.Informer()
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	defer cancel()
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("the informer did not sync")
	}
	lister := podInformer.Lister().Pods("ns")
	cachedA, err := lister.Get("a")
	if err != nil {
		t.Fatal(err)
	}
	cachedB, err := lister.Get("b")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cachedA, a) || !reflect.DeepEqual(cachedB, b) {
		t.Errorf("cached objects differ from the server's:\n%#v\n%#v", cachedA, cachedB)
	}
	mine := cachedA.DeepCopy()
	mine.Labels["app"] = "changed"
	mine.Labels["new"] = "label"
	for _, p := range []*corev1.Pod{cachedA, cachedB} {
		if len(p.Labels) != 1 || p.Labels["app"] != "web" {
			t.Errorf("cached pod %s has labels %v after a copy was changed", p.Name, p.Labels)
		}
	}
}

// README: "An object an informer receives from a ListerWatcher that does
// not use this library's clients (a fake, your own) is not published
// itself: the cache holds a shared copy of it, equal to it".

// TestInformerOverFakeWatcher is a unit test as client-go users write
// them: an informer over a fake ListWatch whose pods share one labels map,
// objects added through a fake watcher while the test reads its own pods.
// The handler and the store see pods equal to those sent, and the test's
// pods are never written (under -race, a write would be reported).
func TestInformerOverFakeWatcher(t *testing.T) {
	labels := map[string]string{"app": "web"}
	a, b := testPod("a", "10"), testPod("b", "11")
	a.Labels, b.Labels = labels, labels
	fw := watch.NewFake()
	lw := &cache.ListWatch{
		ListFunc: func(metav1.ListOptions) (runtime.Object, error) {
			return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "10"}, Items: []corev1.Pod{*a}}, nil
		},
		WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { return fw, nil },
	}
	informer := cache.NewSharedIndexInformer(listThenWatch{lw}, &corev1.Pod{}, 0, cache.Indexers{})
	added := make(chan *corev1.Pod, 2)
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { added <- obj.(*corev1.Pod) },
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go informer.RunWithContext(ctx)
	first := <-added
	stop := make(chan struct{})
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case <-stop:
				return
			default:
			}
			for k, v := range labels {
				_, _ = k, v
			}
		}
	}()
	fw.Add(b)
	second := <-added
	close(stop)
	<-readerDone
	if !reflect.DeepEqual(first, a) || !reflect.DeepEqual(second, b) {
		t.Errorf("handler saw %v and %v, want the pods sent", first, second)
	}
	if len(labels) != 1 || labels["app"] != "web" {
		t.Errorf("the test's labels map became %v", labels)
	}
	stored, exists, err := informer.GetStore().Get(b)
	if err != nil || !exists || !reflect.DeepEqual(stored, b) {
		t.Errorf("stored %v (exists %v, %v), want the pod sent", stored, exists, err)
	}
}

// listThenWatch is a ListWatch that says it cannot stream a list as watch
// events, as client-go's fake clientsets do, so that the informer lists.
type listThenWatch struct{ *cache.ListWatch }

func (listThenWatch) IsWatchListSemanticsUnSupported() bool { return true }
