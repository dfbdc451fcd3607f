package testing

import (
	"fmt"
	"reflect"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// clientGoSemantics is the behaviour of client-go's tracker, behind
// NewObjectTracker: objects are stored exactly as given, only their
// existence is checked, dry-run and finalizers are ignored, and each
// resource counts its own writes, which version its lists and the start of
// its watches. Lists and watches ignore selectors (the fake clients filter
// lists themselves) and nothing is replayed.
type clientGoSemantics struct {
	// writes is the write count of each resource; a resource never
	// written to is at 1.
	writes map[*resourceStore]int64
}

func newClientGoSemantics() *clientGoSemantics {
	return &clientGoSemantics{writes: map[*resourceStore]int64{}}
}

func (c *clientGoSemantics) version(s *resourceStore) int64 {
	if n, ok := c.writes[s]; ok {
		return n
	}
	return 1
}

func (c *clientGoSemantics) write(s *resourceStore, w writeRequest) (runtime.Object, error) {
	key := w.key()
	current, exists := s.objects[key]
	ev := storedEvent{typ: watch.Added, obj: w.obj}
	switch {
	case w.mode != writeUpdate && exists:
		return nil, apierrors.NewAlreadyExists(w.gr, key.Name)
	case w.mode == writeUpdate && !exists:
		return nil, apierrors.NewNotFound(w.gr, key.Name)
	case w.mode == writeUpdate:
		if w.subresource != "" && reflect.TypeOf(w.obj) != reflect.TypeOf(current.obj) {
			// A subresource of another type (a Scale, an Eviction...) is
			// the answer to the request, not a replacement of the object.
			return w.obj, nil
		}
		ev.typ, ev.prev = watch.Modified, current.obj
	}
	ev.rev = c.version(s) + 1
	c.writes[s] = ev.rev
	s.objects[key] = &storedObject{obj: w.obj, rev: ev.rev}
	s.broadcast(ev)
	return w.obj.DeepCopyObject(), nil
}

// remove deletes the object at once, whatever its finalizers,
// preconditions or dry-run; it does not count as a write.
func (c *clientGoSemantics) remove(s *resourceStore, key types.NamespacedName, current *storedObject, _ schema.GroupResource, _ metav1.DeleteOptions) (runtime.Object, error) {
	delete(s.objects, key)
	s.broadcast(storedEvent{rev: c.version(s), typ: watch.Deleted, obj: current.obj, prev: current.obj})
	return current.obj.DeepCopyObject(), nil
}

func (c *clientGoSemantics) listOptions(metav1.ListOptions) metav1.ListOptions {
	return metav1.ListOptions{}
}

// watchPlan: without options a watch sees only future changes; with them it
// starts with the objects written after the write count they name ("" is 0).
func (c *clientGoSemantics) watchPlan(ns string, opts []metav1.ListOptions) (watchPlan, error) {
	sel, _ := newObjectSelector(ns, metav1.ListOptions{})
	if len(opts) == 0 {
		return watchPlan{sel: sel, start: startFromNow}, nil
	}
	var after int64
	if rv := opts[0].ResourceVersion; rv != "" {
		var err error
		if after, err = strconv.ParseInt(rv, 10, 64); err != nil {
			return watchPlan{}, fmt.Errorf("invalid resourceVersion %q in the list options: it must be an integer: %w", rv, err)
		}
	}
	return watchPlan{sel: sel, start: startWithStored, after: after}, nil
}

func (c *clientGoSemantics) createsOnApply() bool { return false }

func (c *clientGoSemantics) splitsStatus() bool { return false }
