package consistencydetector

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// enabled is read once from the environment at start-up.
var enabled atomic.Bool

func init() {
	on, _ := strconv.ParseBool(os.Getenv("KUBE_WATCHLIST_INCONSISTENCY_DETECTOR"))
	enabled.Store(on)
}

// IsDataConsistencyDetectionForWatchListEnabled reports whether
// KUBE_WATCHLIST_INCONSISTENCY_DETECTOR was true when the binary started.
func IsDataConsistencyDetectionForWatchListEnabled() bool {
	return enabled.Load()
}

// SetDataConsistencyDetectionForWatchListEnabledForTest overrides the
// setting and returns a function restoring the previous value.
func SetDataConsistencyDetectionForWatchListEnabledForTest(enabled_ bool) func() {
	previous := enabled.Swap(enabled_)
	return func() { enabled.Store(previous) }
}

// RetrieveItemsFunc returns the items received earlier.
type RetrieveItemsFunc[U any] func() []U

// ListFunc lists objects from the server.
type ListFunc[T runtime.Object] func(ctx context.Context, options metav1.ListOptions) (T, error)

// TransformFunc is applied to listed items before comparing them.
type TransformFunc func(interface{}) (interface{}, error)

// CheckDataConsistency lists the resource at lastSyncedResourceVersion
// (retrying once a second until ctx ends) and panics if the result differs
// from retrieveItemsFn's items, after applying listItemTransformFunc to the
// listed items. It is unconditional; callers check
// IsDataConsistencyDetectionForWatchListEnabled first. identity, if set,
// names the checked informer in logs.
func CheckDataConsistency[T runtime.Object, U any](ctx context.Context, identity string, lastSyncedResourceVersion string, listFn ListFunc[T], listItemTransformFunc TransformFunc, listOptions metav1.ListOptions, retrieveItemsFn RetrieveItemsFunc[U]) {
	logger := klog.FromContext(ctx)
	if identity != "" {
		logger = klog.LoggerWithName(logger, identity)
	}
	if listOptions.Continue != "" || lastSyncedResourceVersion == "0" {
		logger.V(4).Info("Skipping the data consistency check: the resource version and list options do not allow an exact list request")
		return
	}
	logger.Info("Warning: data consistency check is enabled, this will result in an additional call to the API server.")

	received, err := metaObjects(retrieveItemsFn())
	if err != nil {
		panic(err)
	}
	if listOptions.ResourceVersion == "0" && listOptions.Limit > 0 && int64(len(received)) > listOptions.Limit {
		listOptions.Limit = 0
	}
	listOptions.ResourceVersion = lastSyncedResourceVersion
	listOptions.ResourceVersionMatch = metav1.ResourceVersionMatchExact

	var list runtime.Object
	err = wait.PollUntilContextCancel(ctx, time.Second, true, func(context.Context) (bool, error) {
		var listErr error
		list, listErr = listFn(ctx, listOptions)
		if listErr != nil {
			logger.Info("Failed to list data from the server, retrying until context is canceled", "err", listErr)
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		logger.Error(err, "Failed to list data from the server, the data consistency check won't be performed")
		return
	}
	raw, err := meta.ExtractListWithAlloc(list)
	if err != nil {
		panic(err)
	}
	if listItemTransformFunc != nil {
		for i := range raw {
			obj, err := listItemTransformFunc(raw[i])
			if err != nil {
				panic(err)
			}
			raw[i] = obj.(runtime.Object)
		}
	}
	listed, err := metaObjects(raw)
	if err != nil {
		panic(err)
	}
	sortByUID(listed)
	sortByUID(received)
	if !reflect.DeepEqual(listed, received) {
		logger.Info("Previously received data is different than received by the standard list api call against etcd", "listed", describe(listed), "received", describe(received))
		panic(fmt.Sprintf("data inconsistency detected for %s, panicking!", identity))
	}
}

func sortByUID(objs []metav1.Object) {
	sort.Slice(objs, func(i, j int) bool { return objs[i].GetUID() < objs[j].GetUID() })
}

func metaObjects[T any](items []T) ([]metav1.Object, error) {
	out := make([]metav1.Object, len(items))
	for i, item := range items {
		m, err := meta.Accessor(item)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		out[i] = m
	}
	return out, nil
}

// describe renders objects compactly for the inconsistency log message.
func describe(objs []metav1.Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = fmt.Sprintf("%s/%s uid=%s rv=%s", o.GetNamespace(), o.GetName(), o.GetUID(), o.GetResourceVersion())
	}
	return out
}
