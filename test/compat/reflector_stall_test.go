package compat

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubeclient/client-go/tools/cache"
)

// README: "A Reflector (and so every informer) abandons a watch that
// brings no event and no bookmark for 3 minutes ... Only a watch this
// library reads from the network ... on the real clock is checked".

// fakeWatchListWatch is a test's ListWatch: one pod listed, then the given
// fake watcher, whatever resourceVersion is asked for. It refuses
// streaming lists, so the reflector lists first.
func fakeWatchListWatch(fw *watch.FakeWatcher) *cache.ListWatch {
	return &cache.ListWatch{
		ListFunc: func(metav1.ListOptions) (runtime.Object, error) {
			return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "10"}, Items: []corev1.Pod{*testPod("a", "10")}}, nil
		},
		WatchFunc: func(opts metav1.ListOptions) (watch.Interface, error) {
			if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
				return nil, apierrors.NewBadRequest("streaming lists are not supported")
			}
			return fw, nil
		},
	}
}

// TestReflectorFakeClockFakeWatcher is a client-go user's test: a
// Reflector on a fake clock, its fake watcher quiet while the test moves
// the clock five minutes, then an object added. It reaches the store.
func TestReflectorFakeClockFakeWatcher(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	fw := watch.NewFake()
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	r := cache.NewReflectorWithOptions(fakeWatchListWatch(fw), &corev1.Pod{}, store, cache.ReflectorOptions{Clock: clk})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	listed := func(context.Context) (bool, error) { _, ok, _ := store.GetByKey("ns/a"); return ok, nil }
	if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 30*time.Second, true, listed); err != nil {
		t.Fatal("nothing listed")
	}

	fw.Add(testPod("b", "11")) // blocks until the reflector reads it: it follows the watch
	clk.Step(5 * time.Minute)
	fw.Add(testPod("c", "12"))
	added := func(context.Context) (bool, error) { _, ok, _ := store.GetByKey("ns/c"); return ok, nil }
	if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 30*time.Second, true, added); err != nil {
		t.Fatal("the pod added after the clock moved never reached the store")
	}
	if fw.IsStopped() {
		t.Error("the reflector stopped the test's watcher")
	}
}
