package watch

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/tools/cache"
)

func TestRetryWatcherEstablishmentErrors(t *testing.T) {
	gr := schema.GroupResource{Resource: "configmaps"}
	tests := []struct {
		name string
		err  error
		// wantRetry: the RetryWatcher opens a second watch and delivers its
		// event; otherwise it reports the error and closes.
		wantRetry bool
	}{
		{name: "resource expired", err: apierrors.NewResourceExpired("too old"), wantRetry: true},
		{name: "gone", err: apierrors.NewGone("gone"), wantRetry: true},
		{name: "internal error", err: apierrors.NewInternalError(errors.New("boom")), wantRetry: true},
		{name: "forbidden", err: apierrors.NewForbidden(gr, "", errors.New("no")), wantRetry: false},
		{name: "unauthorized", err: apierrors.NewUnauthorized("who"), wantRetry: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sw := &scriptedWatcher{next: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
				if call == 1 {
					return nil, tc.err
				}
				return closedWatch(watch.Event{Type: watch.Added, Object: cm("a", "2")}), nil
			}}
			rw, err := newRetryWatcher(context.Background(), "1", sw, fastRetry)
			if err != nil {
				t.Fatal(err)
			}
			defer rw.Stop()
			var e watch.Event
			select {
			case e = <-rw.ResultChan():
			case <-time.After(10 * time.Second):
				t.Fatal("no event")
			}
			if tc.wantRetry {
				if e.Type != watch.Added {
					t.Fatalf("event = %v %v, want the event of the retried watch", e.Type, e.Object)
				}
				return
			}
			status, ok := e.Object.(*metav1.Status)
			if e.Type != watch.Error || !ok || status.Code != tc.err.(apierrors.APIStatus).Status().Code {
				t.Fatalf("event = %v %v, want the establishment error", e.Type, e.Object)
			}
			select {
			case <-rw.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("RetryWatcher kept going after a permanent error")
			}
		})
	}
}

func TestUntilWithoutRetryContextEnd(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := UntilWithoutRetry(ctx, watch.NewFake(), func(watch.Event) (bool, error) { return false, nil })
	if !wait.Interrupted(err) {
		t.Fatalf("err = %v, want an interruption", err)
	}
	// Unlike the deprecated wait.ErrWaitTimeout, the error carries no
	// cause of its own.
	if errors.Is(err, wait.ErrWaitTimeout) || err.Error() != wait.ErrorInterrupted(nil).Error() {
		t.Errorf("err = %q, want %q", err, wait.ErrorInterrupted(nil))
	}
}

// blockingLW never answers a list or watch until released; it ignores the
// context, as ListWatch funcs written for the old signatures do.
type blockingLW struct{ release chan struct{} }

func (b blockingLW) List(metav1.ListOptions) (runtime.Object, error) {
	<-b.release
	return &v1.ConfigMapList{}, nil
}

func (b blockingLW) Watch(metav1.ListOptions) (watch.Interface, error) {
	<-b.release
	return watch.NewFake(), nil
}

func (b blockingLW) IsWatchListSemanticsUnSupported() bool { return true }

var _ cache.ListerWatcher = blockingLW{}

func TestUntilWithSyncReturnsWhenListHangs(t *testing.T) {
	tests := []struct {
		name         string
		precondition PreconditionFunc
		wantErr      string
	}{
		{name: "without precondition", wantErr: wait.ErrorInterrupted(nil).Error()},
		{
			name:         "with precondition",
			precondition: func(cache.Store) (bool, error) { return true, nil },
			wantErr:      fmt.Sprintf("UntilWithSync: unable to sync caches: %v", context.DeadlineExceeded),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lw := blockingLW{release: make(chan struct{})}
			defer close(lw.release)
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			result := make(chan error, 1)
			go func() {
				_, err := UntilWithSync(ctx, lw, &v1.ConfigMap{}, tc.precondition, func(watch.Event) (bool, error) { return true, nil })
				result <- err
			}()
			select {
			case err := <-result:
				if err == nil || err.Error() != tc.wantErr {
					t.Errorf("err = %v, want %s", err, tc.wantErr)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("UntilWithSync did not return after its context ended")
			}
		})
	}
}
