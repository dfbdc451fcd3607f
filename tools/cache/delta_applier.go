package cache

import (
	"errors"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
)

// An informer's controller pops deltas from its queue; a deltaApplier
// applies them to the informer's cache and turns each change into a
// notification: a plain handler for NewInformerWithOptions (handlerSink),
// the shared informer's listeners for a SharedInformer (informerSink).

// notificationSink receives the notifications derived from applying
// deltas to a store. sync marks updates caused by a resync or an unchanged
// relist.
type notificationSink interface {
	add(obj interface{}, isInInitialList bool)
	update(oldObj, newObj interface{}, sync bool)
	delete(obj interface{})
	// resyncAll redelivers every object of the store as a sync update.
	resyncAll(objs []interface{})
}

// handlerSink adapts a plain ResourceEventHandler.
type handlerSink struct{ h ResourceEventHandler }

func (s handlerSink) add(obj interface{}, initial bool) { s.h.OnAdd(obj, initial) }
func (s handlerSink) update(o, n interface{}, _ bool)   { s.h.OnUpdate(o, n) }
func (s handlerSink) delete(obj interface{})            { s.h.OnDelete(obj) }
func (s handlerSink) resyncAll(objs []interface{}) {
	for _, obj := range objs {
		s.h.OnUpdate(obj, obj)
	}
}

// deltaApplier applies popped deltas to a store and reports the resulting
// notifications, in order. It runs on the controller's single processing
// goroutine.
type deltaApplier struct {
	store   Store
	handler notificationSink
	// sharing gives the object to publish for each object entering the
	// store (see cacheSharing.publish); nil publishes them as they are.
	sharing *cacheSharing
	// lock, when not nil, is held while process or processBatch applies
	// deltas and notifies handler.
	lock sync.Locker
}

var errNotDeltas = errors.New("object given as Process argument is not Deltas")

// hold takes a.lock, if any, and returns its release.
func (a *deltaApplier) hold() (release func()) {
	if a.lock == nil {
		return func() {}
	}
	a.lock.Lock()
	return a.lock.Unlock
}

func (a *deltaApplier) process(obj interface{}, isInInitialList bool) error {
	deltas, ok := obj.(Deltas)
	if !ok {
		return errNotDeltas
	}
	defer a.hold()()
	for _, d := range deltas {
		if err := a.apply(d, isInInitialList); err != nil {
			return err
		}
	}
	return nil
}

func (a *deltaApplier) apply(d Delta, isInInitialList bool) error {
	switch d.Type {
	case Sync, Replaced, Added, Updated:
		d = a.publishable(d)
		old, exists, err := a.store.Get(d.Object)
		if err != nil {
			return err
		}
		if exists {
			if err := a.store.Update(d.Object); err != nil {
				return err
			}
			a.handler.update(old, d.Object, sameResourceVersion(old, d.Object))
			return nil
		}
		if err := a.store.Add(d.Object); err != nil {
			return err
		}
		a.handler.add(d.Object, isInInitialList)
	case Deleted:
		if err := a.store.Delete(d.Object); err != nil {
			return err
		}
		a.handler.delete(d.Object)
	case ReplacedAll:
		info, ok := d.Object.(ReplacedAllInfo)
		if !ok {
			return errors.New("ReplacedAll delta without ReplacedAllInfo")
		}
		return a.replaceAll(info, isInInitialList)
	case SyncAll:
		a.handler.resyncAll(a.store.List())
	case Bookmark:
		if info, ok := d.Object.(BookmarkInfo); ok {
			a.store.Bookmark(info.ResourceVersion)
		}
	}
	return nil
}

// replaceAll makes the store equal to info.Objects: objects that vanished
// are deleted (notified as DeletedFinalStateUnknown), the others are added
// or updated.
func (a *deltaApplier) replaceAll(info ReplacedAllInfo, isInInitialList bool) error {
	// Informer stores are keyed by DeletionHandlingMetaNamespaceKeyFunc.
	keep := make(map[string]struct{}, len(info.Objects))
	for _, obj := range info.Objects {
		key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		keep[key] = struct{}{}
	}
	for _, key := range a.store.ListKeys() {
		if _, ok := keep[key]; ok {
			continue
		}
		old, exists, err := a.store.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		if err := a.store.Delete(old); err != nil {
			return err
		}
		a.handler.delete(DeletedFinalStateUnknown{Key: key, Obj: old})
	}
	for _, obj := range info.Objects {
		if err := a.apply(Delta{Type: Replaced, Object: obj}, isInInitialList); err != nil {
			return err
		}
	}
	a.store.Bookmark(info.ResourceVersion)
	return nil
}

// processBatch applies deltas of distinct objects under one store lock
// acquisition when the store supports transactions, then notifies.
func (a *deltaApplier) processBatch(deltas []Delta, isInInitialList bool) error {
	defer a.hold()()
	ts, ok := a.store.(TransactionStore)
	if !ok {
		for _, d := range deltas {
			if err := a.apply(d, isInInitialList); err != nil {
				return err
			}
		}
		return nil
	}
	olds := make([]interface{}, len(deltas))
	exist := make([]bool, len(deltas))
	txns := make([]Transaction, len(deltas))
	for i, d := range deltas {
		d = a.publishable(d)
		old, exists, err := a.store.Get(d.Object)
		if err != nil {
			return err
		}
		olds[i], exist[i] = old, exists
		switch {
		case d.Type == Deleted:
			txns[i] = Transaction{Object: d.Object, Type: TransactionTypeDelete}
		case exists:
			txns[i] = Transaction{Object: d.Object, Type: TransactionTypeUpdate}
		default:
			txns[i] = Transaction{Object: d.Object, Type: TransactionTypeAdd}
		}
	}
	txErr := ts.Transaction(txns...)
	applied := func(i int) bool {
		if txErr == nil {
			return true
		}
		for _, j := range txErr.SuccessfulIndices {
			if j == i {
				return true
			}
		}
		return false
	}
	for i, txn := range txns {
		if !applied(i) {
			continue
		}
		// txn.Object is what was published for deltas[i].
		switch {
		case txn.Type == TransactionTypeDelete:
			a.handler.delete(txn.Object)
		case exist[i]:
			a.handler.update(olds[i], txn.Object, sameResourceVersion(olds[i], txn.Object))
		default:
			a.handler.add(txn.Object, isInInitialList)
		}
	}
	if txErr != nil {
		return txErr
	}
	return nil
}

// publishable returns d with the object to publish for it: for a delta
// that brings an object into the cache, what a.sharing publishes in its
// place. A Sync delta replays an object cached (and published) already, a
// deleted object leaves the cache.
func (a *deltaApplier) publishable(d Delta) Delta {
	switch d.Type {
	case Replaced, Added, Updated:
		d.Object = a.sharing.publish(d.Object)
	}
	return d
}

// sameResourceVersion reports whether both objects carry the same resource
// version, which marks an update as a resync rather than a change.
func sameResourceVersion(oldObj, newObj interface{}) bool {
	n, err := meta.Accessor(newObj)
	if err != nil {
		return false
	}
	o, err := meta.Accessor(oldObj)
	if err != nil {
		return false
	}
	return n.GetResourceVersion() == o.GetResourceVersion()
}
