package cache

import (
	"context"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// contextOnlyLW implements only the WithContext interfaces.
type contextOnlyLW struct{ calls []string }

func (c *contextOnlyLW) List(metav1.ListOptions) (runtime.Object, error) {
	c.calls = append(c.calls, "List")
	return &v1.PodList{}, nil
}

func (c *contextOnlyLW) Watch(metav1.ListOptions) (watch.Interface, error) {
	c.calls = append(c.calls, "Watch")
	return watch.NewFake(), nil
}

func TestListerWatcherWrappers(t *testing.T) {
	lw := &contextOnlyLW{}
	wrapped := ToListerWatcherWithContext(lw)
	_, _ = wrapped.ListWithContext(context.Background(), metav1.ListOptions{})
	_, _ = wrapped.WatchWithContext(context.Background(), metav1.ListOptions{})
	if strings.Join(lw.calls, ",") != "List,Watch" {
		t.Errorf("calls = %v", lw.calls)
	}
	native := &ListWatch{}
	if got := ToListerWatcherWithContext(native); got != ListerWatcherWithContext(native) {
		t.Error("a ListWatch must be returned as is")
	}

	var seen []string
	full := &ListWatch{
		ListFunc: func(metav1.ListOptions) (runtime.Object, error) { seen = append(seen, "ListFunc"); return nil, nil },
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			seen = append(seen, "ListWithContextFunc")
			return nil, nil
		},
		WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { seen = append(seen, "WatchFunc"); return nil, nil },
	}
	_, _ = full.List(metav1.ListOptions{})
	_, _ = full.ListWithContext(context.Background(), metav1.ListOptions{})
	_, _ = full.WatchWithContext(context.Background(), metav1.ListOptions{}) // falls back
	if strings.Join(seen, ",") != "ListFunc,ListWithContextFunc,WatchFunc" {
		t.Errorf("dispatch = %v", seen)
	}
}
