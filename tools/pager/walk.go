package pager

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// pageWalk requests the pages of one list in order: each request carries
// the continue token of the page before it.
type pageWalk struct {
	fetch ListPageFunc
	// initial are the caller's options, with the page size defaulted.
	initial metav1.ListOptions
	// current are the options of the next request.
	current metav1.ListOptions
	done    bool // the last page was received
}

// walk starts a walk over the list that options select. A zero Limit is
// replaced by the pager's PageSize.
func (p *ListPager) walk(options metav1.ListOptions) *pageWalk {
	if options.Limit == 0 {
		options.Limit = p.PageSize
	}
	return &pageWalk{fetch: p.PageFn, initial: options, current: options}
}

// next requests the next page. It returns the page and its list metadata,
// or the error of ctx, of the request, or of a page that is not a list.
func (w *pageWalk) next(ctx context.Context) (runtime.Object, metav1.ListInterface, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	page, err := w.fetch(ctx, w.current)
	if err != nil {
		return nil, nil, err
	}
	info, err := meta.ListAccessor(page)
	if err != nil {
		return nil, nil, fmt.Errorf("returned object must be a list: %v", err)
	}
	token := info.GetContinue()
	w.done = token == ""
	// A continue token carries its own resource version; the server
	// rejects requests that repeat one.
	w.current.Continue, w.current.ResourceVersion, w.current.ResourceVersionMatch = token, "", ""
	return page, info, nil
}

// finished reports whether the last page was received.
func (w *pageWalk) finished() bool { return w.done }

// continuing reports whether the next (or failed) request carries a
// continue token.
func (w *pageWalk) continuing() bool { return w.current.Continue != "" }

// unpaged returns the options of a single request for the whole list, at
// the resource version the caller asked for.
func (w *pageWalk) unpaged() metav1.ListOptions {
	full := w.initial
	full.Limit, full.Continue = 0, ""
	return full
}
