package listitems

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// Recorder collects the item allocations of the lists decoded for one
// list call (its pages, or its fallback to one full list) until Extract
// takes them. The zero value is ready to use; a nil *Recorder records
// nothing and Extract copies every item.
type Recorder struct {
	mu sync.Mutex
	// lists, guarded by mu, holds what Record was given, in order.
	lists []recorded
}

// recorded is the item allocations decoded for one list object.
type recorded struct {
	list  runtime.Object
	items []runtime.Object
}

// Record records that list, just decoded, holds in its items a copy of
// each of items, in order: objects the decoder made for this list and
// will not write again.
func (r *Recorder) Record(list runtime.Object, items []runtime.Object) {
	if r == nil || len(items) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lists = append(r.lists, recorded{list, items})
}

// take removes and returns the items recorded for list, or nil.
func (r *Recorder) take(list runtime.Object) []runtime.Object {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, l := range r.lists {
		if l.list == list {
			r.lists = append(r.lists[:i], r.lists[i+1:]...)
			return l.items
		}
	}
	return nil
}

// Extract returns the items of list as meta.ExtractListWithAlloc does:
// pointer items as they are, and a copy of each item held by value. An
// item that is still a byte-for-byte copy of the allocation recorded for
// it is returned as that allocation instead of a new copy; the two are
// indistinguishable to the caller (they share every slice, map and
// pointer), but the decoder knew the recorded one's address.
func (r *Recorder) Extract(list runtime.Object) ([]runtime.Object, error) {
	recordedItems := r.take(list)
	if recordedItems == nil {
		return meta.ExtractListWithAlloc(list)
	}
	itemsPtr, err := meta.GetItemsPtr(list)
	if err != nil {
		return nil, err
	}
	items := reflect.ValueOf(itemsPtr).Elem()
	if items.Kind() != reflect.Slice || items.Type().Elem().Kind() != reflect.Struct {
		return meta.ExtractListWithAlloc(list)
	}
	elem := items.Type().Elem()
	out := make([]runtime.Object, items.Len())
	for i := range out {
		item := items.Index(i).Addr()
		if i < len(recordedItems) && sameValue(item, recordedItems[i]) {
			out[i] = recordedItems[i]
			continue
		}
		copied := reflect.New(elem)
		copied.Elem().Set(item.Elem())
		obj, ok := copied.Interface().(runtime.Object)
		if !ok {
			return nil, fmt.Errorf("%v: item[%d]: Expected object, got %#v(%s)", list, i, copied.Interface(), copied.Kind())
		}
		out[i] = obj
	}
	return out, nil
}

// sameValue reports whether item, a pointer to a list's item, points to a
// byte-for-byte copy of what allocation (a pointer to the same type)
// points to: every field equal, strings, slices, maps and pointers
// referring to the same memory. The decoder copies the allocation into
// the zeroed array of the list, padding included, so a copy the
// ListerWatcher left alone compares equal; one it changed does not.
func sameValue(item reflect.Value, allocation runtime.Object) bool {
	a := reflect.ValueOf(allocation)
	if a.Type() != item.Type() || a.IsNil() {
		return false
	}
	size := item.Type().Elem().Size()
	x := unsafe.Slice((*byte)(item.UnsafePointer()), size)
	y := unsafe.Slice((*byte)(a.UnsafePointer()), size)
	return string(x) == string(y)
}

// recorderKey is the context key of NewContext.
type recorderKey struct{}

// NewContext returns ctx carrying r: the decoders of list requests made
// with it record their items' allocations in r (see Recorder). A nil r
// returns ctx.
func NewContext(ctx context.Context, r *Recorder) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, recorderKey{}, r)
}

// FromContext returns the Recorder ctx carries, or nil.
func FromContext(ctx context.Context) *Recorder {
	if ctx == nil {
		return nil
	}
	r, _ := ctx.Value(recorderKey{}).(*Recorder)
	return r
}
