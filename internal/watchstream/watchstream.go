// Package watchstream marks the watches that package rest reads from the
// network, so that the machinery above it can tell them from the watches
// a program makes itself (watch.NewFake, a ListWatch of its own, a
// wrapper). tools/cache and tools/watch detect a stalled stream only on a
// Stream, and the reflector learns from it that a stream was cut inside an
// event. It is internal to the module.
//
// Layer: a leaf above apimachinery; it imports no package of this module.
package watchstream

import "k8s.io/apimachinery/pkg/watch"

// Stream is implemented by the watch.Interface that rest.Request.Watch
// returns for a response it reads from the network.
type Stream interface {
	watch.Interface
	// CutError returns the error that cut the stream inside an event,
	// losing that event; nil when the stream ended between events or was
	// stopped. It is final once the result channel has closed.
	CutError() error
}

// CutError returns the error that cut w's stream inside an event when w
// is a Stream, and nil otherwise.
func CutError(w watch.Interface) error {
	if s, ok := w.(Stream); ok {
		return s.CutError()
	}
	return nil
}

// IsStream reports whether w is a watch that package rest reads from the
// network.
func IsStream(w watch.Interface) bool {
	_, ok := w.(Stream)
	return ok
}
