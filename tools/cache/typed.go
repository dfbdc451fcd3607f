package cache

import (
	"fmt"
)

// Object is the part of metav1.Object that identifies an object. All
// Kubernetes API types satisfy it through their ObjectMeta. It is
// comparable so that a zero value (such as a nil pointer) can be detected.
type Object interface {
	comparable

	GetName() string
	GetNamespace() string
}

// DeletedObject describes a deleted object for typed handlers.
// OptionalObj is the last known state, which may be stale or, when the
// informer never had a copy, the zero value; FinalStateUnknown is set when
// the deletion was only noticed by a relist. GetKey and GetObjectName work
// in every case, and GetName/GetNamespace make it loggable with klog.KObj.
type DeletedObject[T Object] struct {
	// OptionalObj is the last state the informer knew. When the deletion
	// was noticed by a relist it may be an older revision, or the zero
	// value if the informer never had a copy. Only the key is certain: use
	// GetKey or GetObjectName for it.
	OptionalObj T

	// FinalStateUnknown is set, carrying the key, when OptionalObj may not
	// be the final state; its Obj is the same object as OptionalObj.
	FinalStateUnknown *DeletedFinalStateUnknown
}

// GetKey returns the cache key of the deleted object.
func (d DeletedObject[T]) GetKey() string {
	if d.FinalStateUnknown != nil {
		return d.FinalStateUnknown.Key
	}
	return d.GetObjectName().String()
}

// GetObjectName returns the namespace and name of the deleted object. A
// tombstone key that does not parse is taken as a bare name.
func (d DeletedObject[T]) GetObjectName() ObjectName {
	if d.FinalStateUnknown != nil {
		name, err := ParseObjectName(d.FinalStateUnknown.Key)
		if err != nil {
			return ObjectName{Name: d.FinalStateUnknown.Key}
		}
		return name
	}
	var zero T
	if d.OptionalObj == zero {
		return ObjectName{}
	}
	return NewObjectName(d.OptionalObj.GetNamespace(), d.OptionalObj.GetName())
}

// GetName returns the name, without the namespace.
func (d DeletedObject[T]) GetName() string { return d.GetObjectName().Name }

// GetNamespace returns the namespace, or "".
func (d DeletedObject[T]) GetNamespace() string { return d.GetObjectName().Namespace }

// toDeletedObject converts what an untyped OnDelete receives.
func toDeletedObject[T Object](obj interface{}) (DeletedObject[T], bool) {
	switch o := obj.(type) {
	case T:
		return DeletedObject[T]{OptionalObj: o}, true
	case DeletedFinalStateUnknown:
		d := DeletedObject[T]{FinalStateUnknown: &o}
		if typed, ok := o.Obj.(T); ok {
			d.OptionalObj = typed
		}
		return d, true
	}
	return DeletedObject[T]{}, false
}

// TypedResourceEventHandler is a type-safe ResourceEventHandler.
type TypedResourceEventHandler[T Object] interface {
	OnAdd(obj T, isInInitialList bool)
	OnUpdate(oldObj, newObj T)
	OnDelete(obj DeletedObject[T])
}

// TypedResourceEventHandlerFuncs implements TypedResourceEventHandler with
// optional functions.
type TypedResourceEventHandlerFuncs[T Object] struct {
	AddFunc    func(obj T)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
}

// OnAdd calls AddFunc if it is set.
func (r TypedResourceEventHandlerFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	callIfSet(r.AddFunc, obj)
}

// OnUpdate calls UpdateFunc if it is set.
func (r TypedResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	callIfSet2(r.UpdateFunc, oldObj, newObj)
}

// OnDelete calls DeleteFunc if it is set.
func (r TypedResourceEventHandlerFuncs[T]) OnDelete(obj DeletedObject[T]) {
	callIfSet(r.DeleteFunc, obj)
}

// TypedResourceEventHandlerDetailedFuncs is TypedResourceEventHandlerFuncs
// whose AddFunc also receives isInInitialList.
type TypedResourceEventHandlerDetailedFuncs[T Object] struct {
	AddFunc    func(obj T, isInInitialList bool)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
}

// OnAdd calls AddFunc if it is set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	callIfSet2(r.AddFunc, obj, isInInitialList)
}

// OnUpdate calls UpdateFunc if it is set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnUpdate(oldObj, newObj T) {
	callIfSet2(r.UpdateFunc, oldObj, newObj)
}

// OnDelete calls DeleteFunc if it is set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnDelete(obj DeletedObject[T]) {
	callIfSet(r.DeleteFunc, obj)
}

// TypedFilteringResourceEventHandler is a type-safe
// FilteringResourceEventHandler.
type TypedFilteringResourceEventHandler[T Object] struct {
	FilterFunc func(obj T) bool
	Handler    TypedResourceEventHandler[T]
}

// OnAdd forwards the add if obj passes the filter.
func (r TypedFilteringResourceEventHandler[T]) OnAdd(obj T, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate forwards an update, add or delete depending on which objects
// pass the filter.
func (r TypedFilteringResourceEventHandler[T]) OnUpdate(oldObj, newObj T) {
	newer, older := r.FilterFunc(newObj), r.FilterFunc(oldObj)
	switch {
	case newer && older:
		r.Handler.OnUpdate(oldObj, newObj)
	case newer:
		r.Handler.OnAdd(newObj, false)
	case older:
		r.Handler.OnDelete(DeletedObject[T]{OptionalObj: oldObj})
	}
}

// OnDelete forwards the delete if its OptionalObj (possibly the zero
// value) passes the filter.
func (r TypedFilteringResourceEventHandler[T]) OnDelete(obj DeletedObject[T]) {
	if r.FilterFunc(obj.OptionalObj) {
		r.Handler.OnDelete(obj)
	}
}

// typedHandlerAdapter turns a TypedResourceEventHandler into an untyped
// one; objects of another type are ignored.
type typedHandlerAdapter[T Object] struct {
	handler TypedResourceEventHandler[T]
}

func (a typedHandlerAdapter[T]) OnAdd(obj interface{}, isInInitialList bool) {
	if typed, ok := obj.(T); ok {
		a.handler.OnAdd(typed, isInInitialList)
	}
}

func (a typedHandlerAdapter[T]) OnUpdate(oldObj, newObj interface{}) {
	o, ok1 := oldObj.(T)
	n, ok2 := newObj.(T)
	if ok1 && ok2 {
		a.handler.OnUpdate(o, n)
	}
}

func (a typedHandlerAdapter[T]) OnDelete(obj interface{}) {
	if d, ok := toDeletedObject[T](obj); ok {
		a.handler.OnDelete(d)
	}
}

// TypedIndexer is an Indexer with type-safe accessors.
type TypedIndexer[T any] interface {
	Indexer

	TypedIndex(indexName string, obj T) ([]T, error)
	ByTypedIndex(indexName, indexedValue string) ([]T, error)
	AddTypedIndexers(newIndexers TypedIndexers[T]) error
}

type typedIndexer[T any] struct {
	Indexer
}

func castAll[T any](objs []interface{}) ([]T, error) {
	out := make([]T, 0, len(objs))
	for _, obj := range objs {
		typed, ok := obj.(T)
		if !ok {
			var zero T
			return nil, fmt.Errorf("expected object of type %T, got %T", zero, obj)
		}
		out = append(out, typed)
	}
	return out, nil
}

func (t typedIndexer[T]) TypedIndex(indexName string, obj T) ([]T, error) {
	objs, err := t.Index(indexName, obj)
	if err != nil {
		return nil, err
	}
	return castAll[T](objs)
}

func (t typedIndexer[T]) ByTypedIndex(indexName, indexedValue string) ([]T, error) {
	objs, err := t.ByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return castAll[T](objs)
}

func (t typedIndexer[T]) AddTypedIndexers(newIndexers TypedIndexers[T]) error {
	return t.AddIndexers(TypedIndexersToIndexers(newIndexers))
}

// TypedSharedIndexInformer adds type-safe methods to SharedIndexInformer.
type TypedSharedIndexInformer[T Object] interface {
	SharedIndexInformer

	// AddTypedEventHandler adds a typed handler; at most one HandlerOptions
	// may be passed.
	AddTypedEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error)
	AddTypedIndexers(indexers TypedIndexers[T]) error
	GetTypedIndexer() TypedIndexer[T]
}

// NewTypedSharedIndexInformer wraps informer with type-safe methods.
func NewTypedSharedIndexInformer[T Object](informer SharedIndexInformer) TypedSharedIndexInformer[T] {
	return typedSharedIndexInformer[T]{informer}
}

type typedSharedIndexInformer[T Object] struct {
	SharedIndexInformer
}

func (t typedSharedIndexInformer[T]) AddTypedEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error) {
	// Always go through AddEventHandlerWithOptions, with zero options when
	// none are given, so wrapped informers see a single entry point.
	var opts HandlerOptions
	switch len(options) {
	case 0:
	case 1:
		opts = options[0]
	default:
		return nil, fmt.Errorf("AddTypedEventHandler accepts at most one HandlerOptions, got %d", len(options))
	}
	return t.AddEventHandlerWithOptions(typedHandlerAdapter[T]{handler}, opts)
}

func (t typedSharedIndexInformer[T]) AddTypedIndexers(indexers TypedIndexers[T]) error {
	return t.AddIndexers(TypedIndexersToIndexers(indexers))
}

func (t typedSharedIndexInformer[T]) GetTypedIndexer() TypedIndexer[T] {
	return typedIndexer[T]{t.GetIndexer()}
}
