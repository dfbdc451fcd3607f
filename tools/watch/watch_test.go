package watch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/tools/cache"
	fcache "github.com/kubeclient/client-go/tools/cache/testing"
)

func cm(name, rv string) *v1.ConfigMap {
	return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

// scriptedWatcher hands out prepared watches and records the requested
// resource versions.
type scriptedWatcher struct {
	mu       sync.Mutex
	versions []string
	next     func(call int, opts metav1.ListOptions) (watch.Interface, error)
}

func (s *scriptedWatcher) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	s.mu.Lock()
	s.versions = append(s.versions, opts.ResourceVersion)
	n := len(s.versions)
	s.mu.Unlock()
	return s.next(n, opts)
}

func closedWatch(events ...watch.Event) watch.Interface {
	fw := watch.NewFakeWithChanSize(len(events), false)
	for _, e := range events {
		fw.Action(e.Type, e.Object)
	}
	fw.Stop()
	return fw
}

func TestRetryWatcherResumesFromLastVersion(t *testing.T) {
	sw := &scriptedWatcher{next: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
		switch call {
		case 1:
			return closedWatch(watch.Event{Type: watch.Added, Object: cm("a", "2")}, watch.Event{Type: watch.Bookmark, Object: cm("", "4")}), nil
		case 2:
			return nil, errors.New("connection reset") // retried
		case 3:
			status := apierrors.NewInternalError(errors.New("etcd hiccup")).ErrStatus
			return closedWatch(watch.Event{Type: watch.Modified, Object: cm("a", "5")}, watch.Event{Type: watch.Error, Object: &status}), nil
		default:
			return closedWatch(watch.Event{Type: watch.Deleted, Object: cm("a", "6")}), nil
		}
	}}
	rw, err := newRetryWatcher(context.Background(), "1", sw, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Stop()
	var got []string
	for len(got) < 3 {
		e := <-rw.ResultChan()
		got = append(got, fmt.Sprintf("%s@%s", e.Type, e.Object.(*v1.ConfigMap).ResourceVersion))
	}
	if fmt.Sprint(got) != "[ADDED@2 MODIFIED@5 DELETED@6]" {
		t.Errorf("events = %v", got)
	}
	sw.mu.Lock()
	versions := sw.versions[:4]
	sw.mu.Unlock()
	if fmt.Sprint(versions) != "[1 4 4 5]" {
		t.Errorf("resumed from %v", versions)
	}
}

func TestRetryWatcherStopsOnGone(t *testing.T) {
	sw := &scriptedWatcher{next: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
		status := apierrors.NewResourceExpired("too old").ErrStatus
		status.Code = 410
		return closedWatch(watch.Event{Type: watch.Error, Object: &status}), nil
	}}
	rw, err := newRetryWatcher(context.Background(), "1", sw, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := <-rw.ResultChan()
	if !ok || e.Type != watch.Error {
		t.Fatalf("first event = %v %v", e, ok)
	}
	if _, ok := <-rw.ResultChan(); ok {
		t.Error("result channel still open after 410")
	}
	<-rw.Done()
}

func TestRetryWatcherRejectsUnresumableVersions(t *testing.T) {
	for _, rv := range []string{"", "0"} {
		if _, err := NewRetryWatcherWithContext(context.Background(), rv, &scriptedWatcher{}); err == nil {
			t.Errorf("rv %q accepted", rv)
		}
	}
}

func TestRetryWatcherStop(t *testing.T) {
	sw := &scriptedWatcher{next: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil }}
	rw, err := NewRetryWatcherWithContext(context.Background(), "1", sw)
	if err != nil {
		t.Fatal(err)
	}
	rw.Stop()
	rw.Stop()
	select {
	case <-rw.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not done after Stop")
	}
}

func TestUntilWithoutRetry(t *testing.T) {
	isRV := func(rv string) ConditionFunc {
		return func(e watch.Event) (bool, error) { return e.Object.(*v1.ConfigMap).ResourceVersion == rv, nil }
	}
	w := closedWatch(watch.Event{Type: watch.Added, Object: cm("a", "1")}, watch.Event{Type: watch.Modified, Object: cm("a", "2")})
	e, err := UntilWithoutRetry(context.Background(), w, isRV("1"), isRV("2"))
	if err != nil || e.Object.(*v1.ConfigMap).ResourceVersion != "2" {
		t.Errorf("UntilWithoutRetry = %v %v", e, err)
	}

	w = closedWatch(watch.Event{Type: watch.Added, Object: cm("a", "1")})
	if _, err := UntilWithoutRetry(context.Background(), w, isRV("9")); err != ErrWatchClosed {
		t.Errorf("closed watch err = %v", err)
	}

	boom := errors.New("boom")
	w = closedWatch(watch.Event{Type: watch.Added, Object: cm("a", "1")})
	if _, err := UntilWithoutRetry(context.Background(), w, func(watch.Event) (bool, error) { return false, boom }); err != boom {
		t.Errorf("condition error = %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := UntilWithoutRetry(ctx, watch.NewFake(), isRV("1")); !wait.Interrupted(err) {
		t.Errorf("timeout err = %v", err)
	}
}

// watchRecorder passes watches through to a source and reports the resource
// version each one starts from.
type watchRecorder struct {
	source cache.Watcher
	opened chan string
}

func (r watchRecorder) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	w, err := r.source.Watch(opts)
	r.opened <- opts.ResourceVersion
	return w, err
}

func TestUntilRetries(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(cm("a", ""))
	watches := watchRecorder{source: source, opened: make(chan string, 10)}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		<-watches.opened           // the first watch is open
		source.ResetWatch()        // and ends: Until must resume
		source.Modify(cm("a", "")) // while no watch is open
	}()
	e, err := Until(ctx, "1", watches, func(e watch.Event) (bool, error) { return e.Type == watch.Modified, nil })
	if err != nil || e.Object.(*v1.ConfigMap).ResourceVersion != "2" {
		t.Fatalf("Until = %v %v", e, err)
	}
	// The modification reached no watch when it was made: only the second
	// watch, resumed from the last version seen, can have delivered it.
	select {
	case rv := <-watches.opened:
		if rv != "1" {
			t.Errorf("second watch from resource version %q, want 1", rv)
		}
	default:
		t.Error("Until returned without opening a second watch")
	}
}

func TestUntilWithSync(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(cm("a", ""))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// The precondition can finish the wait at once.
	e, err := UntilWithSync(ctx, source, &v1.ConfigMap{}, func(store cache.Store) (bool, error) {
		_, ok, err := store.GetByKey("ns/a")
		return ok, err
	})
	if err != nil || e != nil {
		t.Errorf("precondition: %v %v", e, err)
	}

	// b is created once the wait has seen a, so it arrives as a watch
	// event after the initial list.
	e, err = UntilWithSync(ctx, source, &v1.ConfigMap{}, nil, func(e watch.Event) (bool, error) {
		if name := e.Object.(*v1.ConfigMap).Name; name == "a" {
			source.Add(cm("b", ""))
		}
		return e.Object.(*v1.ConfigMap).Name == "b", nil
	})
	if err != nil || e.Type != watch.Added {
		t.Errorf("UntilWithSync = %v %v", e, err)
	}
}

func TestNewIndexerInformerWatcher(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(cm("a", ""))
	source.Add(cm("b", ""))
	_, ctrl, w, done := NewIndexerInformerWatcher(source, &v1.ConfigMap{})
	var got []string
	next := func() {
		select {
		case e := <-w.ResultChan():
			got = append(got, string(e.Type)+" "+e.Object.(*v1.ConfigMap).Name)
		case <-time.After(10 * time.Second):
			t.Fatal("no event")
		}
	}
	next()
	next()
	if !ctrl.HasSynced() {
		// HasSynced follows once the initial adds were processed.
		if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 5*time.Second, true,
			func(context.Context) (bool, error) { return ctrl.HasSynced(), nil }); err != nil {
			t.Fatal("informer never synced")
		}
	}
	source.DeleteDropWatch(cm("b", ""))
	source.ResetWatch() // a relist notices the deletion
	next()
	w.Stop()
	<-done
	if fmt.Sprint(got[2:]) != "[DELETED b]" {
		t.Errorf("events = %v", got)
	}
	if _, ok := <-w.ResultChan(); ok {
		t.Error("result channel open after the informer stopped")
	}
}

func TestContextWithOptionalTimeout(t *testing.T) {
	ctx, cancel := ContextWithOptionalTimeout(context.Background(), 0)
	if _, ok := ctx.Deadline(); ok {
		t.Error("zero timeout set a deadline")
	}
	cancel()
	ctx, cancel = ContextWithOptionalTimeout(context.Background(), time.Hour)
	defer cancel()
	if _, ok := ctx.Deadline(); !ok {
		t.Error("timeout did not set a deadline")
	}
}

var _ runtime.Object = &v1.ConfigMap{}

// fastRetry restarts watches after a millisecond instead of a second.
var fastRetry = retryTiming{clock: clock.RealClock{}, restartDelay: time.Millisecond}
