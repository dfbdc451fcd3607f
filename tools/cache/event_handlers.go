package cache

import (
	"time"

	"k8s.io/klog/v2"
)

// ResourceEventHandler receives notifications about changes to a resource.
// Handlers must not modify the objects they are given, at any depth.
//   - OnAdd is called for new objects; isInInitialList says whether the
//     object came from the informer's initial list.
//   - OnUpdate is called for changes and for resyncs and relists, even when
//     nothing changed. oldObj is the last state the handler was told about;
//     intermediate states may have been merged.
//   - OnDelete gets the final state when known, otherwise a
//     DeletedFinalStateUnknown (when the deletion was noticed by a relist).
type ResourceEventHandler interface {
	OnAdd(obj interface{}, isInInitialList bool)
	OnUpdate(oldObj, newObj interface{})
	OnDelete(obj interface{})
}

// ResourceEventHandlerFuncs implements ResourceEventHandler with optional
// functions; nil ones are skipped.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj interface{})
	UpdateFunc func(oldObj, newObj interface{})
	DeleteFunc func(obj interface{})
}

// OnAdd calls AddFunc if it is set.
func (r ResourceEventHandlerFuncs) OnAdd(obj interface{}, isInInitialList bool) {
	callIfSet(r.AddFunc, obj)
}

// OnUpdate calls UpdateFunc if it is set.
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj interface{}) {
	callIfSet2(r.UpdateFunc, oldObj, newObj)
}

// OnDelete calls DeleteFunc if it is set.
func (r ResourceEventHandlerFuncs) OnDelete(obj interface{}) { callIfSet(r.DeleteFunc, obj) }

// ResourceEventHandlerDetailedFuncs is ResourceEventHandlerFuncs whose
// AddFunc also receives isInInitialList.
type ResourceEventHandlerDetailedFuncs struct {
	AddFunc    func(obj interface{}, isInInitialList bool)
	UpdateFunc func(oldObj, newObj interface{})
	DeleteFunc func(obj interface{})
}

// OnAdd calls AddFunc if it is set.
func (r ResourceEventHandlerDetailedFuncs) OnAdd(obj interface{}, isInInitialList bool) {
	callIfSet2(r.AddFunc, obj, isInInitialList)
}

// OnUpdate calls UpdateFunc if it is set.
func (r ResourceEventHandlerDetailedFuncs) OnUpdate(oldObj, newObj interface{}) {
	callIfSet2(r.UpdateFunc, oldObj, newObj)
}

// OnDelete calls DeleteFunc if it is set.
func (r ResourceEventHandlerDetailedFuncs) OnDelete(obj interface{}) { callIfSet(r.DeleteFunc, obj) }

// FilteringResourceEventHandler passes on only events for objects accepted
// by FilterFunc. An update that makes an object start passing the filter
// becomes an add, one that makes it stop passing becomes a delete. The
// filter must not modify objects.
type FilteringResourceEventHandler struct {
	FilterFunc func(obj interface{}) bool
	Handler    ResourceEventHandler
}

// OnAdd forwards the add if obj passes the filter.
func (r FilteringResourceEventHandler) OnAdd(obj interface{}, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate forwards an update, add or delete depending on which of the two
// objects pass the filter (the new one is asked first).
func (r FilteringResourceEventHandler) OnUpdate(oldObj, newObj interface{}) {
	passesNow, passedBefore := r.FilterFunc(newObj), r.FilterFunc(oldObj)
	if passesNow && passedBefore {
		r.Handler.OnUpdate(oldObj, newObj)
	} else if passesNow {
		r.Handler.OnAdd(newObj, false)
	} else if passedBefore {
		r.Handler.OnDelete(oldObj)
	}
}

// OnDelete forwards the delete if obj passes the filter.
func (r FilteringResourceEventHandler) OnDelete(obj interface{}) {
	if r.FilterFunc(obj) {
		r.Handler.OnDelete(obj)
	}
}

// HandlerOptions are the optional settings of
// SharedInformer.AddEventHandlerWithOptions.
type HandlerOptions struct {
	// Logger replaces klog.Background() for this handler.
	Logger *klog.Logger

	// ResyncPeriod requests a resync period for this handler; zero means no
	// resyncs. Nil means the informer's default.
	ResyncPeriod *time.Duration
}
