package cache

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/listitems"
	"github.com/kubeclient/client-go/tools/pager"
)

// listResult is what one list call brought back.
type listResult struct {
	list      runtime.Object
	paginated bool
	err       error
}

// list fetches the full state through the pager and replaces the store's
// content with it. A canceled ctx ends it early without an error.
func (r *Reflector) list(ctx context.Context) error {
	at := r.versions.position().forList()
	items := r.sharing.listItems()
	result, ok := r.fetchList(listitems.NewContext(ctx, items), at)
	if !ok {
		return nil
	}
	if result.err != nil {
		if ctx.Err() != nil {
			return nil
		}
		r.logger.V(4).Info("List failed", "err", result.err)
		return fmt.Errorf("failed to list %v: %w", r.typeDescription, result.err)
	}
	if at == "0" && result.paginated {
		r.paginatedResult = true
	}
	r.versions.setUnavailable(false)
	listMeta, err := meta.ListAccessor(result.list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %#v: %v", result.list, err)
	}
	extracted, err := items.Extract(result.list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %#v (%v)", result.list, err)
	}
	rv := listMeta.GetResourceVersion()
	found := make([]interface{}, len(extracted))
	for i, item := range extracted {
		found[i] = item
	}
	if err := r.store.Replace(found, rv); err != nil {
		return fmt.Errorf("unable to sync list result: %v", err)
	}
	r.versions.reached(rv)
	return nil
}

// fetchList lists at resource version at, falling back to a consistent
// read when the server no longer (or not yet) has that version. The pager
// runs on its own goroutine so that stopping the reflector does not wait
// for a ListerWatcher that ignores the context; ok is false when ctx ended
// first. A panic in the ListerWatcher is re-raised on the caller's
// goroutine.
func (r *Reflector) fetchList(ctx context.Context, at string) (result listResult, ok bool) {
	p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return r.listerWatcher.ListWithContext(r.sharing.requestContext(ctx), opts)
	})
	p.PageSize = r.listPageSize(at, p.PageSize)

	done := make(chan listResult, 1)
	panicked := make(chan interface{}, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				panicked <- v
			}
		}()
		var res listResult
		res.list, res.paginated, res.err = p.ListWithAlloc(ctx, metav1.ListOptions{ResourceVersion: at})
		if isExpiredError(res.err) || isTooLargeResourceVersionError(res.err) {
			r.versions.setUnavailable(true)
			consistent := r.versions.position().forList()
			res.list, res.paginated, res.err = p.ListWithAlloc(ctx, metav1.ListOptions{ResourceVersion: consistent})
		}
		done <- res
	}()
	select {
	case <-ctx.Done():
		return listResult{}, false
	case v := <-panicked:
		panic(v)
	case result = <-done:
		return result, true
	}
}

// listPageSize picks the page size for a list at resource version at:
// none when chunking is disabled, the reflector's WatchListPageSize when
// set, the pager's default once the server was seen paginating, and none
// for a list at a known version, which the apiserver can then serve from
// its watch cache instead of etcd.
func (r *Reflector) listPageSize(at string, pagerDefault int64) int64 {
	switch {
	case r.chunkingDisabled():
		return 0
	case r.WatchListPageSize != 0:
		return r.WatchListPageSize
	case r.paginatedResult:
		return pagerDefault
	case at != "" && at != "0":
		return 0
	}
	return pagerDefault
}

func (r *Reflector) chunkingDisabled() bool {
	switch lw := r.listerWatcher.(type) {
	case *ListWatch:
		return lw.DisableChunking
	case *listWatchWithSupport:
		return lw.DisableChunking
	}
	return false
}
