package compat

import (
	"context"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"

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
