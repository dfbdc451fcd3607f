package sharding

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/tools/cache"
)

// fakeServer answers lists with items: when it filters, only the selected
// ones, with the selector echoed; echo, when set, is echoed instead.
type fakeServer struct {
	items   []corev1.ConfigMap
	filters bool
	echo    string
	lists   []metav1.ListOptions
	watches []metav1.ListOptions
	w       *watch.FakeWatcher
}

func (s *fakeServer) lw() *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(_ context.Context, o metav1.ListOptions) (runtime.Object, error) {
			s.lists = append(s.lists, o)
			list := &corev1.ConfigMapList{}
			sel, err := ParseSelector(o.ShardSelector)
			if err != nil {
				return nil, err
			}
			for _, cm := range s.items {
				if ok, _ := sel.Matches(&cm); ok || !s.filters {
					list.Items = append(list.Items, cm)
				}
			}
			switch {
			case s.echo != "":
				list.ShardInfo = &metav1.ShardInfo{Selector: s.echo}
			case s.filters:
				list.ShardInfo = &metav1.ShardInfo{Selector: o.ShardSelector}
			}
			return list, nil
		},
		WatchFuncWithContext: func(_ context.Context, o metav1.ListOptions) (watch.Interface, error) {
			s.watches = append(s.watches, o)
			s.w = watch.NewFake()
			return s.w, nil
		},
	}
}

func configMaps(n int) []corev1.ConfigMap {
	out := make([]corev1.ConfigMap, n)
	for i := range out {
		out[i] = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("cm-%d", i), UID: k8stypes.UID(fmt.Sprintf("u-%d", i))}}
	}
	return out
}

func TestListWatchModes(t *testing.T) {
	sel := SlotsSelector(KeyUID, []int{1, 2}, 4)
	tests := []struct {
		name     string
		filters  bool
		echo     string
		wantMode Mode
	}{
		{"server filters", true, "", ModeServer},
		{"server ignores the selector", false, "", ModeClient},
		{"server echoes another selector", false, "shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')", ModeClient},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := &fakeServer{items: configMaps(50), filters: tc.filters, echo: tc.echo}
			lw, err := NewListWatch(srv.lw(), sel)
			if err != nil {
				t.Fatal(err)
			}
			// A watch first (watch-list informers start with one): the
			// mode is probed with a one-item list.
			w, err := lw.WatchWithContext(context.Background(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(srv.lists) != 1 || srv.lists[0].Limit != 1 || srv.lists[0].ShardSelector != sel.String() {
				t.Fatalf("probe lists %+v", srv.lists)
			}
			if srv.watches[0].ShardSelector != sel.String() {
				t.Errorf("watch without the selector: %+v", srv.watches[0])
			}
			if lw.Mode() != tc.wantMode {
				t.Fatalf("mode %v, want %v", lw.Mode(), tc.wantMode)
			}
			// The watch delivers only selected objects (the fake server
			// sends everything; in server mode the stream is the server's).
			go func() {
				for i := range srv.items {
					srv.w.Add(&srv.items[i])
				}
				srv.w.Stop()
			}()
			got := 0
			for e := range w.ResultChan() {
				if ok, _ := sel.Matches(e.Object); !ok && tc.wantMode == ModeClient {
					t.Errorf("watch delivered %s outside the selector", e.Object.(*corev1.ConfigMap).Name)
				}
				got++
			}
			want := 0
			for i := range srv.items {
				if ok, _ := sel.Matches(&srv.items[i]); ok {
					want++
				}
			}
			if tc.wantMode == ModeClient && got != want {
				t.Errorf("watch delivered %d objects, want %d", got, want)
			}
			// A list holds only selected objects either way.
			list, err := lw.ListWithContext(context.Background(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(list.(*corev1.ConfigMapList).Items); n != want {
				t.Errorf("list holds %d objects, want %d", n, want)
			}
		})
	}
}

func TestShardInfoOfUnstructuredList(t *testing.T) {
	u := &unstructured.UnstructuredList{Object: map[string]any{"metadata": map[string]any{"shardInfo": map[string]any{"selector": "x"}}}}
	if sel, ok, err := shardInfo(u); sel != "x" || !ok || err != nil {
		t.Errorf("shardInfo = %q, %v, %v", sel, ok, err)
	}
	u = &unstructured.UnstructuredList{Object: map[string]any{"metadata": map[string]any{"shardInfo": map[string]any{"selector": 3}}}}
	if _, _, err := shardInfo(u); err == nil {
		t.Errorf("a malformed shardInfo read without error")
	}
	if _, ok, _ := shardInfo(&unstructured.UnstructuredList{Object: map[string]any{}}); ok {
		t.Errorf("shardInfo found in an empty list")
	}
}

func TestNewListWatchRefusesEmptySelector(t *testing.T) {
	if _, err := NewListWatch((&fakeServer{}).lw(), Selector{Key: KeyUID}); err == nil {
		t.Errorf("empty selector accepted: it would list everything")
	}
}
