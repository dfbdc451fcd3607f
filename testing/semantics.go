package testing

import (
	"math"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// semantics is what differs between the tracker of NewObjectTracker, which
// behaves like client-go's, and that of NewServerLikeObjectTracker, which
// behaves like a small API server: how a write or a delete changes the
// store, how objects, lists and watches are versioned, which list options
// are honoured and where a watch starts. clientGoSemantics and
// serverSemantics implement it; the tracker owns the store and the lock and
// does everything else the same way for both.
//
// Each implementation owns the one resourceVersion counter it versions
// with. Methods are called with the tracker's lock held, except
// listOptions and watchPlan, which only look at their arguments.
type semantics interface {
	// write carries out w on s and returns a copy of what was stored (for
	// a dry run, of what would have been).
	write(s *resourceStore, w writeRequest) (runtime.Object, error)

	// remove deletes the object current stored under key in s, or marks it
	// for deletion, and returns its last state.
	remove(s *resourceStore, key types.NamespacedName, current *storedObject, gr schema.GroupResource, opts metav1.DeleteOptions) (runtime.Object, error)

	// listOptions returns the part of opts a List honours.
	listOptions(opts metav1.ListOptions) metav1.ListOptions

	// version returns the resourceVersion of a list of s, and of the
	// bookmark ending the initial events of a watch on it.
	version(s *resourceStore) int64

	// watchPlan decides from the options of a Watch call (none, or one)
	// what the watch sends before live changes.
	watchPlan(ns string, opts []metav1.ListOptions) (watchPlan, error)

	// createsOnApply reports whether Apply creates an object that does not
	// exist (otherwise it is NotFound).
	createsOnApply() bool

	// splitsStatus reports whether the status subresource is written, and
	// field-managed, apart from the rest of the object; when it is not, a
	// write to status is a write of the whole object.
	splitsStatus() bool
}

// writeRequest is one write to the store: obj, already copied and with the
// request's namespace set, to be stored with the semantics of mode.
type writeRequest struct {
	gr          schema.GroupResource
	subresource string // "status" restricts an update to the status
	obj         runtime.Object
	objMeta     metav1.Object // accessor of obj
	mode        writeMode
	opts        writeOptions
}

// key returns where w.obj is stored.
func (w writeRequest) key() types.NamespacedName {
	return types.NamespacedName{Namespace: w.objMeta.GetNamespace(), Name: w.objMeta.GetName()}
}

// watchStart says what a new watch sends before live changes.
type watchStart int

const (
	// startFromNow: nothing, only changes made from now on.
	startFromNow watchStart = iota
	// startWithStored: an ADDED event for each stored object written
	// after watchPlan.after.
	startWithStored
	// startWithHistory: every recorded change after watchPlan.after; it
	// fails when the history no longer reaches back that far.
	startWithHistory
)

// watchPlan is how a Watch call begins.
type watchPlan struct {
	sel   objectSelector
	start watchStart
	after int64
	// bookmark ends the initial events with a BOOKMARK carrying the
	// initial-events-end annotation (a streaming list that asked for it).
	bookmark bool
}

// allStored is the revision every stored object was written after.
const allStored = math.MinInt64
