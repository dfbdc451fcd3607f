package cache

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/internal/watchstream"
)

// shortWatchThreshold: a watch that closes sooner without events is
// reported as a VeryShortWatchError.
const shortWatchThreshold = time.Second

// Why a watch stream ended, besides the API error of a watch.Error event,
// a failed resync and *VeryShortWatchError.
var (
	// errStopRequested: the context was canceled.
	errStopRequested = errors.New("stop requested")
	// errStreamEnded: the server closed the stream.
	errStreamEnded = errors.New("watch stream ended")
	// errWatchStalled: nothing arrived within the stall timeout.
	errWatchStalled = errors.New("watch stream stalled")
)

// watchStream is one open watch, read by the ListAndWatch goroutine: its
// events are checked and applied to store one at a time by applyNext, the
// step every mode of the Reflector shares. What a mode does with the
// applied events (follow their resource versions, stop at the end of the
// initial events) is the mode's.
type watchStream struct {
	r      *Reflector
	w      watch.Interface
	store  ReflectorStore
	opened time.Time
	// applied counts the events applied to store.
	applied int
	// silence fires when the stream stayed silent for the reflector's
	// stall timeout; nil when detection is off, which it is for a watch
	// this library does not read from the network (see
	// reflector_stall.go).
	silence clock.Timer
	// interrupt, if not nil, ends the stream with the error it delivers.
	interrupt <-chan error
}

// newWatchStream starts reading w, opened at the given time, into store.
func (r *Reflector) newWatchStream(w watch.Interface, store ReflectorStore, opened time.Time, interrupt <-chan error) *watchStream {
	s := &watchStream{r: r, w: w, store: store, opened: opened, interrupt: interrupt}
	if r.stallTimeout > 0 && r.stallClock != nil && watchstream.IsStream(w) {
		s.silence = r.stallClock.NewTimer(r.stallTimeout)
	}
	return s
}

// stop ends the watch and its stall timer.
func (s *watchStream) stop() {
	s.detach().Stop()
}

// detach stops reading: it ends the stall timer and returns the watch,
// still open, for another stream to read.
func (s *watchStream) detach() watch.Interface {
	if s.silence != nil {
		s.silence.Stop()
	}
	return s.w
}

// appliedEvent describes an event applyNext applied.
type appliedEvent struct {
	eventType       watch.EventType
	resourceVersion string
	// initialEventsEnd marks the bookmark that ends a watch-list's
	// initial events.
	initialEventsEnd bool
}

// applyNext waits for the next event the reflector accepts, applies it to
// the store and describes it. Events of an unexpected type or kind, or
// without object metadata, are reported and skipped; a store error is
// reported and the event still counts as applied. The error says why the
// stream ended: errStopRequested, errStreamEnded, errWatchStalled,
// *VeryShortWatchError, an interrupt or the API error of a watch.Error
// event. The caller stops the stream.
func (s *watchStream) applyNext(ctx context.Context) (appliedEvent, error) {
	for {
		event, err := s.receive(ctx)
		if err != nil {
			return appliedEvent{}, err
		}
		if applied, ok := s.apply(ctx, event); ok {
			s.applied++
			return applied, nil
		}
	}
}

// receive waits for the next event of the stream.
func (s *watchStream) receive(ctx context.Context) (watch.Event, error) {
	var silence <-chan time.Time
	if s.silence != nil {
		silence = s.silence.C()
	}
	select {
	case <-ctx.Done():
		return watch.Event{}, errStopRequested
	case err := <-s.interrupt:
		return watch.Event{}, err
	case <-silence:
		s.r.health.stalled(s.r, s.r.stallTimeout)
		return watch.Event{}, errWatchStalled
	case event, open := <-s.w.ResultChan():
		if ctx.Err() != nil {
			// Stopping: what ended or broke the stream (often the
			// cancelled request itself) is neither an event to apply nor
			// an interruption to count.
			return watch.Event{}, errStopRequested
		}
		if !open {
			if cut := watchstream.CutError(s.w); cut != nil {
				// Like any closed watch, it resumes from the last
				// resource version; the lost event comes again.
				s.r.health.interrupted(s.r, cut)
			}
			if s.applied == 0 && s.r.clock.Since(s.opened) < shortWatchThreshold {
				return event, &VeryShortWatchError{Name: s.r.name}
			}
			return event, errStreamEnded
		}
		s.heardFrom()
		if event.Type == watch.Error {
			err := apierrors.FromObject(event.Object)
			if status, ok := event.Object.(*metav1.Status); ok && streamBrokeOff(status) {
				s.r.health.interrupted(s.r, err)
			}
			return event, err
		}
		return event, nil
	}
}

// heardFrom restarts the stall timer: the stream is alive.
func (s *watchStream) heardFrom() {
	if s.silence == nil {
		return
	}
	if !s.silence.Stop() {
		// It fired while the event was being received: drop the tick.
		select {
		case <-s.silence.C():
		default:
		}
	}
	s.silence.Reset(s.r.stallTimeout)
}

// apply checks event and applies it to the store; ok is false for an
// event that was skipped.
func (s *watchStream) apply(ctx context.Context, event watch.Event) (appliedEvent, bool) {
	r := s.r
	if r.expectedType != nil && reflect.TypeOf(event.Object) != r.expectedType {
		utilruntime.HandleErrorWithContext(ctx, nil, "Unexpected watch event object type", "reflector", r.name, "expectedType", r.expectedType, "actualType", reflect.TypeOf(event.Object))
		return appliedEvent{}, false
	}
	if r.expectedGVK != nil {
		if gvk := event.Object.GetObjectKind().GroupVersionKind(); gvk != *r.expectedGVK {
			utilruntime.HandleErrorWithContext(ctx, nil, "Unexpected watch event object gvk", "reflector", r.name, "expectedGVK", r.expectedGVK, "actualGVK", gvk)
			return appliedEvent{}, false
		}
	}
	m, err := meta.Accessor(event.Object)
	if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Unable to understand watch event", "reflector", r.name, "event", event)
		return appliedEvent{}, false
	}
	applied := appliedEvent{eventType: event.Type, resourceVersion: m.GetResourceVersion()}
	switch event.Type {
	case watch.Added:
		err = s.store.Add(event.Object)
	case watch.Modified:
		err = s.store.Update(event.Object)
	case watch.Deleted:
		err = s.store.Delete(event.Object)
	case watch.Bookmark:
		applied.initialEventsEnd = m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true"
		if bookmarks, ok := s.store.(ReflectorBookmarkStore); ok {
			err = bookmarks.Bookmark(applied.resourceVersion)
		}
	default:
		err = fmt.Errorf("unknown watch event type %q", event.Type)
	}
	if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Unable to apply watch event to store", "reflector", r.name, "event", event.Type)
	}
	return applied, true
}
