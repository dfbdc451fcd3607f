package compat

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/tools/cache"
	watchtools "github.com/kubeclient/client-go/tools/watch"
)

// README: "A JSON or protobuf watch stream that ends or breaks in the
// middle of an event closes the result channel as client-go's does".

// cutAfterOneEvent is a watch stream that brings one whole event and part
// of a second, then ends.
func cutAfterOneEvent(t *testing.T) *podServer {
	second := watchFrame(t, watch.Modified, testPod("a", "12"))
	body := append(watchFrame(t, watch.Modified, testPod("a", "11")), second[:len(second)/2]...)
	return &podServer{pods: []*corev1.Pod{testPod("a", "10")}, listRV: "10", watches: []func(w http.ResponseWriter){cutStream(body)}}
}

// TestRawWatchCutClosesChannel: a program ranging over a raw watch sees the
// whole event and then the channel closing, with no Error event; asking
// rest.WatchCutError (an addition) tells it the stream was cut.
func TestRawWatchCutClosesChannel(t *testing.T) {
	client := cutAfterOneEvent(t).start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := client.CoreV1().Pods("ns").Watch(ctx, metav1.ListOptions{ResourceVersion: "10"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	var seen []string
	for event := range w.ResultChan() {
		seen = append(seen, string(event.Type))
	}
	if fmt.Sprint(seen) != "[MODIFIED]" {
		t.Errorf("events %v, want [MODIFIED] and the channel closed, as on client-go", seen)
	}
	if err := rest.WatchCutError(w); err == nil {
		t.Error("rest.WatchCutError: nil, want the cut")
	}
}

// TestUntilWithoutRetryCutIsErrWatchClosed: a condition that treats any
// Error event as fatal (a common pattern) never sees one; the helper
// returns ErrWatchClosed, which callers retry on, as on client-go.
func TestUntilWithoutRetryCutIsErrWatchClosed(t *testing.T) {
	client := cutAfterOneEvent(t).start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := client.CoreV1().Pods("ns").Watch(ctx, metav1.ListOptions{ResourceVersion: "10"})
	if err != nil {
		t.Fatal(err)
	}
	errFatal := errors.New("fatal watch error")
	_, err = watchtools.UntilWithoutRetry(ctx, w, func(event watch.Event) (bool, error) {
		if event.Type == watch.Error {
			return false, errFatal
		}
		return false, nil // waits for a condition that never comes
	})
	if !errors.Is(err, watchtools.ErrWatchClosed) {
		t.Errorf("UntilWithoutRetry: %v, want ErrWatchClosed", err)
	}
}

// TestInformerResumesCutWatch: an informer whose watch is cut inside an
// event watches again from the last resource version it reached; it does
// not list again (one LIST, as on client-go).
func TestInformerResumesCutWatch(t *testing.T) {
	server := cutAfterOneEvent(t)
	client := server.start(t)
	factory := informers.NewSharedInformerFactory(client, 0)
	informer := factory.Core().V1().Pods().Informer()
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	defer cancel()
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("the informer did not sync")
	}
	resumed := func(context.Context) (bool, error) { _, at := server.counts(); return len(at) >= 2, nil }
	if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 30*time.Second, true, resumed); err != nil {
		t.Fatal("the informer never watched again")
	}
	lists, at := server.counts()
	if lists != 1 || at[1] != "11" {
		t.Errorf("%d lists, watches from %v; want 1 list and the second watch from 11", lists, at)
	}
}
