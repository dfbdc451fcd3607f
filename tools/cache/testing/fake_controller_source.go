package framework

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// nnu identifies an object: namespace, name and UID.
type nnu struct {
	namespace, name string
	uid             types.UID
}

// FakeControllerSource is an in-memory ListerWatcher. Every change gets the
// next integer resource version; watches can resume from any version still
// in the change log and get 410 Expired for older ones.
type FakeControllerSource struct {
	// lock guards Items, Broadcaster, changes and lastRV.
	lock        sync.RWMutex
	Items       map[nnu]runtime.Object
	changes     []watch.Event // one change per resource version, oldest first
	Broadcaster *watch.Broadcaster
	lastRV      int

	// ListError, when set, is returned by List instead of a list.
	ListError error
}

// FakePVControllerSource is a FakeControllerSource whose List returns a
// PersistentVolumeList.
type FakePVControllerSource struct {
	FakeControllerSource
}

// FakePVCControllerSource is a FakeControllerSource whose List returns a
// PersistentVolumeClaimList.
type FakePVCControllerSource struct {
	FakeControllerSource
}

func newBroadcaster() *watch.Broadcaster {
	return watch.NewBroadcaster(100, watch.WaitIfChannelFull)
}

// NewFakeControllerSource returns an empty source.
func NewFakeControllerSource() *FakeControllerSource {
	return &FakeControllerSource{Items: map[nnu]runtime.Object{}, Broadcaster: newBroadcaster()}
}

// NewFakePVControllerSource returns an empty source of PersistentVolumes.
func NewFakePVControllerSource() *FakePVControllerSource {
	return &FakePVControllerSource{FakeControllerSource{Items: map[nnu]runtime.Object{}, Broadcaster: newBroadcaster()}}
}

// NewFakePVCControllerSource returns an empty source of
// PersistentVolumeClaims.
func NewFakePVCControllerSource() *FakePVCControllerSource {
	return &FakePVCControllerSource{FakeControllerSource{Items: map[nnu]runtime.Object{}, Broadcaster: newBroadcaster()}}
}

// ResetWatch simulates connection problems: open watches end, the change
// log is dropped, and clients have to list again.
func (f *FakeControllerSource) ResetWatch() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.Broadcaster.Shutdown()
	f.Broadcaster = newBroadcaster()
	f.changes = nil
}

// Probabilities for Change: every change reaches watchers, or none does.
const (
	toWatchers    = 1.0
	notToWatchers = 0.0
)

// Add adds obj, setting its resource version, and tells watchers.
func (f *FakeControllerSource) Add(obj runtime.Object) { f.Change(event(watch.Added, obj), toWatchers) }

// Modify updates obj, setting its resource version, and tells watchers.
func (f *FakeControllerSource) Modify(obj runtime.Object) {
	f.Change(event(watch.Modified, obj), toWatchers)
}

// Delete removes lastValue, setting its resource version, and tells
// watchers.
func (f *FakeControllerSource) Delete(lastValue runtime.Object) {
	f.Change(event(watch.Deleted, lastValue), toWatchers)
}

// AddDropWatch is Add without telling watchers.
func (f *FakeControllerSource) AddDropWatch(obj runtime.Object) {
	f.Change(event(watch.Added, obj), notToWatchers)
}

// ModifyDropWatch is Modify without telling watchers.
func (f *FakeControllerSource) ModifyDropWatch(obj runtime.Object) {
	f.Change(event(watch.Modified, obj), notToWatchers)
}

// DeleteDropWatch is Delete without telling watchers.
func (f *FakeControllerSource) DeleteDropWatch(lastValue runtime.Object) {
	f.Change(event(watch.Deleted, lastValue), notToWatchers)
}

func event(t watch.EventType, obj runtime.Object) watch.Event {
	return watch.Event{Type: t, Object: obj}
}

func key(m metav1.Object) nnu {
	return nnu{m.GetNamespace(), m.GetName(), m.GetUID()}
}

// Change records e, giving its object the next resource version, and
// broadcasts it to watchers with probability watchProbability. Objects
// without metadata panic: they are a bug in the test.
func (f *FakeControllerSource) Change(e watch.Event, watchProbability float64) {
	f.lock.Lock()
	defer f.lock.Unlock()
	m, err := meta.Accessor(e.Object)
	if err != nil {
		panic(fmt.Sprintf("FakeControllerSource: object without metadata: %v", err))
	}
	f.lastRV++
	m.SetResourceVersion(strconv.Itoa(f.lastRV))
	k := key(m)
	if e.Type == watch.Deleted {
		delete(f.Items, k)
	} else {
		f.Items[k] = e.Object
	}
	// Keep a private copy so callers may go on mutating their object.
	e.Object = e.Object.DeepCopyObject()
	f.changes = append(f.changes, e)
	if rand.Float64() < watchProbability {
		_ = f.Broadcaster.Action(e.Type, e.Object.DeepCopyObject())
	}
}

// itemsLocked returns deep copies of the current objects.
func (f *FakeControllerSource) itemsLocked() []runtime.Object {
	list := make([]runtime.Object, 0, len(f.Items))
	for _, obj := range f.Items {
		list = append(list, obj.DeepCopyObject())
	}
	return list
}

// List returns a v1.List of the current objects with the current resource
// version, or ListError if set.
func (f *FakeControllerSource) List(options metav1.ListOptions) (runtime.Object, error) {
	return f.listInto(&v1.List{})
}

// List returns a PersistentVolumeList of the current objects.
func (f *FakePVControllerSource) List(options metav1.ListOptions) (runtime.Object, error) {
	return f.listInto(&v1.PersistentVolumeList{})
}

// List returns a PersistentVolumeClaimList of the current objects.
func (f *FakePVCControllerSource) List(options metav1.ListOptions) (runtime.Object, error) {
	return f.listInto(&v1.PersistentVolumeClaimList{})
}

// listInto fills list with copies of the current objects and the current
// resource version, or returns ListError if set.
func (f *FakeControllerSource) listInto(list runtime.Object) (runtime.Object, error) {
	items, rv, err := f.snapshot()
	if err == nil {
		err = meta.SetList(list, items)
	}
	var listMeta metav1.ListInterface
	if err == nil {
		listMeta, err = meta.ListAccessor(list)
	}
	if err != nil {
		return nil, err
	}
	listMeta.SetResourceVersion(rv)
	return list, nil
}

// snapshot returns copies of the current objects and the current resource
// version, or ListError if set.
func (f *FakeControllerSource) snapshot() ([]runtime.Object, string, error) {
	f.lock.RLock()
	defer f.lock.RUnlock()
	if f.ListError != nil {
		return nil, "", f.ListError
	}
	return f.itemsLocked(), strconv.Itoa(f.lastRV), nil
}

// Watch returns a watch that first replays every change after
// options.ResourceVersion and then follows new ones. Versions no longer in
// the change log get a 410 Expired error.
func (f *FakeControllerSource) Watch(options metav1.ListOptions) (watch.Interface, error) {
	f.lock.RLock()
	defer f.lock.RUnlock()
	rv, err := strconv.Atoi(options.ResourceVersion)
	if err != nil {
		return nil, fmt.Errorf("invalid resource version %q: %w", options.ResourceVersion, err)
	}
	switch {
	case rv > f.lastRV:
		return nil, errors.New("resource version in the future not supported by this fake")
	case rv == f.lastRV:
		return f.Broadcaster.Watch()
	}
	oldest := f.lastRV - len(f.changes) + 1 // version of changes[0]
	if len(f.changes) == 0 || rv < oldest-1 {
		return nil, apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", rv, oldest))
	}
	replay := make([]watch.Event, 0, f.lastRV-rv)
	for _, c := range f.changes[rv-oldest+1:] {
		replay = append(replay, watch.Event{Type: c.Type, Object: c.Object.DeepCopyObject()})
	}
	return f.Broadcaster.WatchWithPrefix(replay)
}

// Shutdown closes the broadcaster after delivering pending events. The
// source stays locked afterwards: using it again is an error.
func (f *FakeControllerSource) Shutdown() {
	f.lock.Lock() // Never unlocked.
	f.Broadcaster.Shutdown()
}
