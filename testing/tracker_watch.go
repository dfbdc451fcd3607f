package testing

import (
	"fmt"
	"reflect"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

// Watch streams the changes to gvr in namespace ns (all namespaces when
// empty).
//
// The tracker of NewObjectTracker, like client-go's, ignores selectors.
// Without options it streams only future changes; with options it first
// sends an ADDED event for every object written after the resource's write
// count opts.ResourceVersion ("" counts as 0), so a watch from a list's
// resourceVersion starts with nothing. There is no history.
//
// A server-like tracker streams only objects matching the selectors of
// opts, and where the stream starts depends on opts.ResourceVersion:
//   - no options at all: only changes made from now on;
//   - "" or "0": an ADDED event for every matching object that exists now,
//     then every change;
//   - a version N: every change after N, replayed from the resource's
//     bounded history, then live changes. When N is older than that history
//     Watch fails with a 410 Expired error, as the API server does, so a
//     reflector relists.
//
// With SendInitialEvents (a streaming list) the current state is sent
// whatever the version, followed, when AllowWatchBookmarks is set, by a
// BOOKMARK annotated with metav1.InitialEventsAnnotationKey.
//
// Writers never wait for a watcher: each one buffers its own events, and
// Stop may be called any number of times from any goroutine.
func (t *tracker) Watch(gvr schema.GroupVersionResource, ns string, opts ...metav1.ListOptions) (watch.Interface, error) {
	if _, err := singleOption(opts); err != nil {
		return nil, err
	}
	plan, err := t.sem.watchPlan(ns, opts)
	if err != nil {
		return nil, err
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.store(gvr)
	w := newTrackerWatcher(plan.sel)
	switch plan.start {
	case startWithStored:
		w.enqueueStored(s, plan.after)
		if plan.bookmark {
			w.enqueue(watch.Event{Type: watch.Bookmark, Object: t.initialEventsEnd(gvr, s)})
		}
	case startWithHistory:
		if plan.after < s.compacted {
			return nil, apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", plan.after, s.compacted+1))
		}
		for _, ev := range s.history {
			if ev.rev > plan.after {
				w.offer(ev)
			}
		}
	}
	t.start(s, w)
	return w, nil
}

// enqueueStored queues an ADDED event, in sortObjects order, for every
// object of s that w's selector matches and that was written after
// revision after. The tracker lock must be held.
func (w *trackerWatcher) enqueueStored(s *resourceStore, after int64) {
	var current []runtime.Object
	for _, so := range s.objects {
		if so.rev > after && w.sel.matches(so.obj) {
			current = append(current, so.obj)
		}
	}
	sortObjects(current)
	for _, obj := range current {
		w.enqueue(watch.Event{Type: watch.Added, Object: obj.DeepCopyObject()})
	}
}

// start registers w with s, to be removed when w stops, and starts its
// run goroutine. The tracker lock must be held.
func (t *tracker) start(s *resourceStore, w *trackerWatcher) {
	w.onStop = func() {
		t.mu.Lock()
		delete(s.watchers, w)
		t.mu.Unlock()
	}
	s.watchers[w] = struct{}{}
	go w.run()
}

// trackerWatcher is one open watch. Writers append to its queue under the
// tracker lock and never block; its run goroutine, started by Watch and
// ended by Stop, forwards the queue to the result channel in order and
// closes that channel when it exits.
type trackerWatcher struct {
	sel    objectSelector
	result chan watch.Event
	wake   chan struct{} // signals run that the queue grew; capacity 1
	done   chan struct{} // closed by Stop
	once   sync.Once
	onStop func() // unregisters the watcher from the tracker

	mu    sync.Mutex // guards queue
	queue []watch.Event
}

func newTrackerWatcher(sel objectSelector) *trackerWatcher {
	return &trackerWatcher{
		sel:    sel,
		result: make(chan watch.Event),
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
	}
}

// ResultChan returns the channel of events; it is closed after Stop.
func (w *trackerWatcher) ResultChan() <-chan watch.Event { return w.result }

// Stop ends the watch. It is safe to call more than once and concurrently.
func (w *trackerWatcher) Stop() {
	w.once.Do(func() {
		close(w.done)
		if w.onStop != nil {
			w.onStop()
		}
	})
}

// offer queues ev as this watcher sees it: an object that starts matching
// the selectors appears as ADDED, one that stops matching as DELETED.
func (w *trackerWatcher) offer(ev storedEvent) {
	now := w.sel.matches(ev.obj)
	typ, obj := ev.typ, ev.obj
	switch ev.typ {
	case watch.Added, watch.Deleted:
		if !now {
			return
		}
	case watch.Modified:
		before := ev.prev != nil && w.sel.matches(ev.prev)
		switch {
		case now && before:
		case now:
			typ = watch.Added
		case before:
			// Left the selection: report the last state it was seen in,
			// at the revision of the change.
			typ = watch.Deleted
			left := ev.prev.DeepCopyObject()
			if m, err := meta.Accessor(left); err == nil {
				m.SetResourceVersion(strconv.FormatInt(ev.rev, 10))
			}
			w.enqueue(watch.Event{Type: typ, Object: left})
			return
		default:
			return
		}
	}
	w.enqueue(watch.Event{Type: typ, Object: obj.DeepCopyObject()})
}

func (w *trackerWatcher) enqueue(ev watch.Event) {
	w.mu.Lock()
	w.queue = append(w.queue, ev)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *trackerWatcher) run() {
	defer close(w.result)
	for {
		w.mu.Lock()
		if len(w.queue) == 0 {
			w.mu.Unlock()
			select {
			case <-w.wake:
				continue
			case <-w.done:
				return
			}
		}
		ev := w.queue[0]
		w.queue[0] = watch.Event{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		select {
		case w.result <- ev:
		case <-w.done:
			return
		}
	}
}

// initialEventsEnd returns the bookmark that ends the initial events of a
// streaming list: an empty object of the resource's type carrying the
// current resourceVersion and the initial-events-end annotation. Called
// with t.mu held.
func (t *tracker) initialEventsEnd(gvr schema.GroupVersionResource, s *resourceStore) runtime.Object {
	var obj runtime.Object
	for _, so := range s.objects {
		obj = reflect.New(reflect.TypeOf(so.obj).Elem()).Interface().(runtime.Object)
		break
	}
	if obj == nil {
		if scheme, ok := t.scheme.(*runtime.Scheme); ok {
			for gvk := range scheme.AllKnownTypes() {
				if gvk.Version == runtime.APIVersionInternal {
					continue
				}
				if guessed, _ := meta.UnsafeGuessKindToResource(gvk); guessed == gvr {
					obj, _ = scheme.New(gvk)
					break
				}
			}
		}
	}
	if obj == nil {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion(gvr.GroupVersion().String())
		obj = u
	}
	if m, err := meta.Accessor(obj); err == nil {
		m.SetResourceVersion(strconv.FormatInt(t.sem.version(s), 10))
		m.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	}
	return obj
}
