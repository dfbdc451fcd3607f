package pager

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// pagedSource serves n pods in pages of the requested limit; calls to a
// continue token listed in expire fail with 410 Expired.
type pagedSource struct {
	n      int
	expire map[string]bool
	calls  []metav1.ListOptions
}

func (s *pagedSource) list(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	s.calls = append(s.calls, opts)
	if s.expire[opts.Continue] {
		return nil, apierrors.NewResourceExpired("continue token expired")
	}
	start := 0
	if opts.Continue != "" {
		start, _ = strconv.Atoi(opts.Continue)
	}
	end := s.n
	list := &v1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "42"}}
	if opts.Limit > 0 && start+int(opts.Limit) < s.n {
		end = start + int(opts.Limit)
		list.Continue = strconv.Itoa(end)
	}
	for i := start; i < end; i++ {
		list.Items = append(list.Items, v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i)}})
	}
	return list, nil
}

func TestListSinglePageIsReturnedAsIs(t *testing.T) {
	src := &pagedSource{n: 3}
	p := New(src.list)
	obj, paginated, err := p.List(context.Background(), metav1.ListOptions{ResourceVersion: "0"})
	if err != nil || paginated {
		t.Fatalf("List = %v, %v", paginated, err)
	}
	if _, ok := obj.(*v1.PodList); !ok {
		t.Errorf("single page converted to %T", obj)
	}
	if src.calls[0].Limit != 500 {
		t.Errorf("default limit = %d", src.calls[0].Limit)
	}
}

func TestListMergesPages(t *testing.T) {
	for _, alloc := range []bool{false, true} {
		src := &pagedSource{n: 5}
		p := New(src.list)
		p.PageSize = 2
		list := p.List
		if alloc {
			list = p.ListWithAlloc
		}
		obj, paginated, err := list(context.Background(), metav1.ListOptions{ResourceVersion: "10", ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan})
		if err != nil || !paginated {
			t.Fatalf("List = %v, %v", paginated, err)
		}
		merged := obj.(*metainternalversion.List)
		if len(merged.Items) != 5 || merged.ResourceVersion != "42" {
			t.Errorf("merged %d items at rv %q", len(merged.Items), merged.ResourceVersion)
		}
		if len(src.calls) != 3 || src.calls[1].ResourceVersion != "" || src.calls[1].ResourceVersionMatch != "" || src.calls[1].Continue != "2" {
			t.Errorf("calls = %+v", src.calls)
		}
	}
}

func TestListFallsBackToFullListOnExpiredToken(t *testing.T) {
	src := &pagedSource{n: 5, expire: map[string]bool{"2": true}}
	p := New(src.list)
	p.PageSize = 2
	obj, _, err := p.List(context.Background(), metav1.ListOptions{ResourceVersion: "7"})
	if err != nil {
		t.Fatal(err)
	}
	last := src.calls[len(src.calls)-1]
	if last.Limit != 0 || last.Continue != "" || last.ResourceVersion != "7" {
		t.Errorf("fallback call = %+v", last)
	}
	if n := len(obj.(*v1.PodList).Items); n != 5 {
		t.Errorf("full list has %d items", n)
	}

	src = &pagedSource{n: 5, expire: map[string]bool{"2": true}}
	p = New(src.list)
	p.PageSize = 2
	p.FullListIfExpired = false
	if _, _, err := p.List(context.Background(), metav1.ListOptions{}); !apierrors.IsResourceExpired(err) {
		t.Errorf("without fallback err = %v", err)
	}
}

func TestEachListItem(t *testing.T) {
	for _, alloc := range []bool{false, true} {
		src := &pagedSource{n: 7}
		p := New(src.list)
		p.PageSize = 3
		p.PageBufferSize = 1
		each := p.EachListItem
		if alloc {
			each = p.EachListItemWithAlloc
		}
		var names []string
		err := each(context.Background(), metav1.ListOptions{}, func(obj runtime.Object) error {
			names = append(names, obj.(*v1.Pod).Name)
			return nil
		})
		if err != nil || len(names) != 7 || names[6] != "p6" {
			t.Errorf("alloc=%v: names=%v err=%v", alloc, names, err)
		}
	}
}

func TestEachListItemStopsOnError(t *testing.T) {
	src := &pagedSource{n: 100}
	p := New(src.list)
	p.PageSize = 10
	stop := errors.New("stop")
	seen := 0
	err := p.EachListItem(context.Background(), metav1.ListOptions{}, func(runtime.Object) error {
		seen++
		if seen == 15 {
			return stop
		}
		return nil
	})
	if err != stop || seen != 15 {
		t.Errorf("err=%v seen=%d", err, seen)
	}
	p.PageBufferSize = -1
	if err := p.EachListItem(context.Background(), metav1.ListOptions{}, func(runtime.Object) error { return nil }); err == nil {
		t.Error("negative buffer size accepted")
	}
}

func TestEachListItemExpiredToken(t *testing.T) {
	src := &pagedSource{n: 10, expire: map[string]bool{"5": true}}
	p := New(SimplePageFunc(func(opts metav1.ListOptions) (runtime.Object, error) {
		return src.list(context.Background(), opts)
	}))
	p.PageSize = 5
	err := p.EachListItem(context.Background(), metav1.ListOptions{}, func(runtime.Object) error { return nil })
	if !apierrors.IsResourceExpired(err) {
		t.Errorf("err = %v, want Expired", err)
	}
}

func TestListHonoursCanceledContext(t *testing.T) {
	src := &pagedSource{n: 5}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := New(src.list).List(ctx, metav1.ListOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}
