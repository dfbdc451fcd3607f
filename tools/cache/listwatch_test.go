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

// TestListWatchDispatch: each method prefers the function of its own
// flavour and falls back to the other one.
func TestListWatchDispatch(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		plain, withContext            bool
		list, listCtx, watch, watchCt string
	}{
		{name: "both set", plain: true, withContext: true, list: "plain", listCtx: "ctx", watch: "plain", watchCt: "ctx"},
		{name: "only plain", plain: true, list: "plain", listCtx: "plain", watch: "plain", watchCt: "plain"},
		{name: "only context", withContext: true, list: "ctx", listCtx: "ctx", watch: "ctx", watchCt: "ctx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var called string
			lw := &ListWatch{}
			if tc.plain {
				lw.ListFunc = func(metav1.ListOptions) (runtime.Object, error) { called = "plain"; return nil, nil }
				lw.WatchFunc = func(metav1.ListOptions) (watch.Interface, error) { called = "plain"; return nil, nil }
			}
			if tc.withContext {
				lw.ListWithContextFunc = func(ctx context.Context, _ metav1.ListOptions) (runtime.Object, error) {
					called = "ctx"
					if ctx == nil {
						t.Error("nil context")
					}
					return nil, nil
				}
				lw.WatchFuncWithContext = func(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
					called = "ctx"
					return nil, nil
				}
			}
			ctx := context.Background()
			for _, c := range []struct {
				method string
				call   func()
				want   string
			}{
				{"List", func() { _, _ = lw.List(metav1.ListOptions{}) }, tc.list},
				{"ListWithContext", func() { _, _ = lw.ListWithContext(ctx, metav1.ListOptions{}) }, tc.listCtx},
				{"Watch", func() { _, _ = lw.Watch(metav1.ListOptions{}) }, tc.watch},
				{"WatchWithContext", func() { _, _ = lw.WatchWithContext(ctx, metav1.ListOptions{}) }, tc.watchCt},
			} {
				called = ""
				c.call()
				if called != c.want {
					t.Errorf("%s called %q, want %q", c.method, called, c.want)
				}
			}
		})
	}
}

// watchListRefuser is a plain ListerWatcher whose client says it cannot do
// watch-list.
type watchListRefuser struct{ contextOnlyLW }

func (watchListRefuser) IsWatchListSemanticsUnSupported() bool { return true }

func TestWatchListSupportSurvivesAdapters(t *testing.T) {
	type unsupported interface{ IsWatchListSemanticsUnSupported() bool }
	for _, tc := range []struct {
		name string
		lw   interface{}
		want bool
	}{
		{"adapter of a refusing client", ToListerWatcherWithContext(&watchListRefuser{}), true},
		{"adapter of a plain client", ToListerWatcherWithContext(&contextOnlyLW{}), false},
		{"ListWatch of a refusing client", ToListWatcherWithWatchListSemantics(&ListWatch{}, watchListRefuser{}), true},
		{"ListWatch of a plain client", ToListWatcherWithWatchListSemantics(&ListWatch{}, struct{}{}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, ok := tc.lw.(unsupported)
			if !ok {
				t.Fatalf("%T does not report watch-list support", tc.lw)
			}
			if got := u.IsWatchListSemanticsUnSupported(); got != tc.want {
				t.Errorf("IsWatchListSemanticsUnSupported = %v, want %v", got, tc.want)
			}
		})
	}
	if _, ok := ToListerWithContext(&contextOnlyLW{}).(ListerWithContext); !ok {
		t.Error("ToListerWithContext result is not a ListerWithContext")
	}
	native := &ListWatch{}
	if ToWatcherWithContext(native) != WatcherWithContext(native) || ToListerWithContext(native) != ListerWithContext(native) {
		t.Error("implementations of the context interfaces must be returned as they are")
	}
}
