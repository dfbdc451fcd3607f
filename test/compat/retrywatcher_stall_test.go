package compat

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/tools/cache"
	watchtools "github.com/kubeclient/client-go/tools/watch"
)

// README: "tools/watch: RetryWatcher (and so Until) detect a stalled watch
// stream the same way ... only a watch read from the network is checked,
// never a watch the program made itself."

// TestRetryWatcherQuietFakeWatcher is a client-go user's test of code that
// follows a watch with a RetryWatcher, in a synctest bubble whose clock
// jumps: a fake watcher quiet for ten minutes still delivers its next
// event, and is not replaced.
func TestRetryWatcherQuietFakeWatcher(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fw := watch.NewFake()
		var watches atomic.Int32
		lw := &cache.ListWatch{WatchFunc: func(metav1.ListOptions) (watch.Interface, error) {
			if watches.Add(1) == 1 {
				return fw, nil
			}
			return watch.NewFake(), nil
		}}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rw, err := watchtools.NewRetryWatcherWithContext(ctx, "10", lw)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { rw.Stop(); <-rw.Done() }()

		time.Sleep(10 * time.Minute)
		go fw.Add(testPod("b", "11"))
		event := <-rw.ResultChan()
		if pod, ok := event.Object.(*corev1.Pod); event.Type != watch.Added || !ok || pod.Name != "b" {
			t.Errorf("event %s %#v, want ADDED b", event.Type, event.Object)
		}
		if n := watches.Load(); n != 1 {
			t.Errorf("%d watches, want 1", n)
		}
	})
}
