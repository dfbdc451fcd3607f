package compat

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/cache"
)

// README: "tools/cache.MutationCache.GetByKey never returns its internal
// deletion record".

// TestMutationCacheGetAfterDelete: a program asks a MutationCache for an
// object it was told was deleted at a newer version than the one the
// informer still holds, and type-asserts the answer as client-go programs
// do. It gets the stored pod; on client-go the assertion could fail on
// the cache's unexported deletion record.
func TestMutationCacheGetAfterDelete(t *testing.T) {
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	if err := store.Add(testPod("a", "10")); err != nil {
		t.Fatal(err)
	}
	mc := cache.NewIntegerResourceVersionMutationCache(klog.Background(), store, nil, time.Minute, true)
	mc.OnDelete(testPod("a", "11"))
	obj, exists, err := mc.GetByKey("ns/a")
	if err != nil {
		t.Fatal(err)
	}
	pod, ok := obj.(*corev1.Pod)
	if exists && !ok {
		t.Fatalf("GetByKey returned %T, which a client-go program cannot use", obj)
	}
	if exists && pod.ResourceVersion != "10" {
		t.Errorf("got %s@%s, want the stored pod", pod.Name, pod.ResourceVersion)
	}
}
