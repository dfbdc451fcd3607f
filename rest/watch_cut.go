package rest

import (
	"sync/atomic"

	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/responsebody"
	"github.com/kubeclient/client-go/internal/watchstream"
)

// WatchCutError returns the error that cut the stream of w inside an
// event, once w's result channel has closed: the event being received was
// lost. w is a watch that a Request's Watch returned (and so the typed,
// dynamic and metadata clients' Watch). WatchCutError returns nil when the
// stream ended between events or w was stopped, and for any other
// watch.Interface. The channel itself closes as it does in client-go, with
// no event to say why; a program that wants to know calls WatchCutError
// once the channel has closed (before that, it returns nil or the cut the
// stream's reader already met behind the events still to be received).
//
// This function is an addition of this module; client-go has no
// counterpart.
func WatchCutError(w watch.Interface) error {
	return watchstream.CutError(w)
}

// streamWatch is the watch.Interface of a watch response read from the
// network: the StreamWatcher that reads it, and the events it reads, which
// keep the cut the stream may end with (internal/responsebody). It is a
// watchstream.Stream.
type streamWatch struct {
	*watch.StreamWatcher
	events  *responsebody.Events
	stopped atomic.Bool
}

var _ watchstream.Stream = &streamWatch{}

// Stop ends the watch; a cut that follows is the caller's doing.
func (w *streamWatch) Stop() {
	w.stopped.Store(true)
	w.StreamWatcher.Stop()
}

// CutError implements watchstream.Stream.
func (w *streamWatch) CutError() error {
	if w.stopped.Load() {
		return nil
	}
	return w.events.CutError()
}
