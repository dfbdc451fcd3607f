package pager

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/kubeclient/client-go/internal/listitems"
)

const (
	defaultPageSize       = 500
	defaultPageBufferSize = 10
)

// ListPageFunc returns one page of a list for the given options.
type ListPageFunc func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)

// ListPager breaks a list call into pages of at most PageSize items. PageFn
// must honour Limit and Continue in the options it is given; the pager never
// touches label or field selectors.
type ListPager struct {
	// PageSize is the default Limit of each request; zero disables
	// paging.
	PageSize int64
	// PageFn fetches one page.
	PageFn ListPageFunc

	// FullListIfExpired makes List fall back to one unpaginated request
	// when a continue token expires.
	FullListIfExpired bool

	// PageBufferSize is how many pages EachListItem fetches ahead.
	PageBufferSize int32
}

// New returns a pager with the default page size that falls back to a full
// list when a continue token expires.
func New(fn ListPageFunc) *ListPager {
	p := &ListPager{PageFn: fn, FullListIfExpired: true}
	p.PageSize, p.PageBufferSize = defaultPageSize, defaultPageBufferSize
	return p
}

// SimplePageFunc adapts a list function without a context to ListPageFunc;
// the context is dropped.
func SimplePageFunc(fn func(opts metav1.ListOptions) (runtime.Object, error)) ListPageFunc {
	return func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) { return fn(opts) }
}

// List fetches the whole list page by page and returns it as one object.
// A result that fits one page is returned as the server sent it; otherwise
// the pages are merged into a metainternalversion.List and the boolean is
// true. Options.Limit defaults to PageSize. If a continue token expires the
// pager lists everything in one request (when FullListIfExpired is set).
func (p *ListPager) List(ctx context.Context, options metav1.ListOptions) (runtime.Object, bool, error) {
	return p.list(ctx, options, false)
}

// ListWithAlloc is List that copies non-pointer items out of each page, so
// that retaining one item does not keep a whole page's array alive.
func (p *ListPager) ListWithAlloc(ctx context.Context, options metav1.ListOptions) (runtime.Object, bool, error) {
	return p.list(ctx, options, true)
}

func (p *ListPager) list(ctx context.Context, options metav1.ListOptions, allocNew bool) (runtime.Object, bool, error) {
	walk := p.walk(options)
	var merged *mergedList
	for {
		page, info, err := walk.next(ctx)
		switch {
		case err == nil:
		case walk.continuing() && p.FullListIfExpired && errors.IsResourceExpired(err):
			// The continue token expired: list everything in one request
			// at the resource version first asked for.
			full, err := p.PageFn(ctx, walk.unpaged())
			return full, merged != nil, err
		default:
			return nil, merged != nil, err
		}
		if merged == nil {
			if info.GetContinue() == "" {
				return page, false, nil // the list fits one page
			}
			merged = newMergedList(info)
		}
		if err := merged.add(page, allocNew, listitems.FromContext(ctx)); err != nil {
			return nil, true, err
		}
		if walk.finished() {
			return merged.list, true, nil
		}
	}
}

// mergedList collects the items of several pages into one list that
// carries the first page's resource version.
type mergedList struct {
	list *metainternalversion.List
}

func newMergedList(first metav1.ListInterface) *mergedList {
	l := &metainternalversion.List{}
	l.ResourceVersion = first.GetResourceVersion()
	l.SelfLink = first.GetSelfLink()
	return &mergedList{list: l}
}

// add appends the items of page, copied out of it when allocNew is set;
// items that are copies of allocations their decoder recorded in items
// are those allocations instead (see package listitems).
func (m *mergedList) add(page runtime.Object, allocNew bool, items *listitems.Recorder) error {
	if allocNew && items != nil {
		extracted, err := items.Extract(page)
		if err != nil {
			return err
		}
		m.list.Items = append(m.list.Items, extracted...)
		return nil
	}
	each := meta.EachListItem
	if allocNew {
		each = meta.EachListItemWithAlloc
	}
	return each(page, func(item runtime.Object) error {
		m.list.Items = append(m.list.Items, item)
		return nil
	})
}

// EachListItem calls fn on every item of the list, fetching pages in the
// background (up to PageBufferSize ahead). It stops at the first error of
// fn, of the server, or of ctx. A continue token that expires midway
// surfaces as an Expired error. Use EachListItemWithAlloc if fn retains
// items for differing durations.
func (p *ListPager) EachListItem(ctx context.Context, options metav1.ListOptions, fn func(obj runtime.Object) error) error {
	return p.eachItem(ctx, options, meta.EachListItem, fn)
}

// EachListItemWithAlloc is EachListItem that copies non-pointer items out of
// each page before passing them to fn.
func (p *ListPager) EachListItemWithAlloc(ctx context.Context, options metav1.ListOptions, fn func(obj runtime.Object) error) error {
	return p.eachItem(ctx, options, meta.EachListItemWithAlloc, fn)
}

// eachItem calls fn on every item of every page, in order, taking the items
// out of each page with each.
func (p *ListPager) eachItem(ctx context.Context, options metav1.ListOptions, each func(runtime.Object, func(runtime.Object) error) error, fn func(runtime.Object) error) error {
	if p.PageBufferSize < 0 {
		return fmt.Errorf("ListPager.PageBufferSize must be >= 0, got %d", p.PageBufferSize)
	}
	return p.eachListChunkBuffered(ctx, options, func(page runtime.Object) error { return each(page, fn) })
}

// eachListChunkBuffered fetches pages on a producer goroutine and hands
// them to fn on the caller's goroutine. PageBufferSize must not be
// negative. The producer stops when the
// consumer returns, because the shared context is canceled.
func (p *ListPager) eachListChunkBuffered(ctx context.Context, options metav1.ListOptions, fn func(obj runtime.Object) error) error {
	ctx, stopProducer := context.WithCancel(ctx)
	defer stopProducer()
	pages, producerErr := p.prefetch(ctx, options)
	for page := range pages {
		if err := fn(page); err != nil {
			return err
		}
	}
	return <-producerErr
}

// prefetch runs eachListChunk on a goroutine of its own that hands the pages
// over a channel holding up to PageBufferSize of them. The goroutine closes
// the channel when done and then reports its error; it ends early when ctx
// ends.
func (p *ListPager) prefetch(ctx context.Context, options metav1.ListOptions) (<-chan runtime.Object, <-chan error) {
	pages := make(chan runtime.Object, p.PageBufferSize)
	result := make(chan error, 1)
	handOver := func(page runtime.Object) error {
		select {
		case pages <- page:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	go func() {
		defer utilruntime.HandleCrash()
		defer close(pages)
		result <- p.eachListChunk(ctx, options, handOver)
	}()
	return pages, result
}

// eachListChunk calls fn with every page in order.
func (p *ListPager) eachListChunk(ctx context.Context, options metav1.ListOptions, fn func(obj runtime.Object) error) error {
	walk := p.walk(options)
	for !walk.finished() {
		page, _, err := walk.next(ctx)
		if err != nil {
			return err
		}
		if err := fn(page); err != nil {
			return err
		}
	}
	return nil
}
