package cache

import (
	"cmp"
	"container/list"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

const (
	defaultMutationCacheTTL  = 5 * time.Minute
	defaultMutationCacheSize = 100
)

// MutationCache overlays a Store with the results of the caller's own
// writes, so that reads reflect them before the informer catches up. It
// compares resource versions to decide which copy is newer. Calling
// OnAddOrUpdate and OnDelete from informer handlers keeps it accurate.
type MutationCache interface {
	GetByKey(key string) (interface{}, bool, error)
	ByIndex(indexName, indexKey string) ([]interface{}, error)
	Mutation(interface{})
	OnAddOrUpdate(obj runtime.Object)
	OnDelete(obj runtime.Object)

	// internal keeps implementations inside this package.
	internal()
}

// ResourceVersionComparator orders two objects by resource version.
type ResourceVersionComparator interface {
	CompareResourceVersion(lhs, rhs runtime.Object) int
}

// MutationCacheOptions configure
// NewIntegerResourceVersionMutationCacheWithOptions.
type MutationCacheOptions struct {
	// Indexer serves ByIndex; without it ByIndex returns an error.
	Indexer Indexer

	// TTL is how long a mutation is remembered; zero means five minutes.
	TTL time.Duration

	// IncludeAdds makes the cache return mutated objects that the backing
	// store does not have (yet). Such entries may linger for up to TTL
	// after the object was deleted.
	IncludeAdds bool

	// MaxCacheSize bounds the number of remembered mutations, evicting the
	// least recently used; zero means 100.
	MaxCacheSize int
}

// NewIntegerResourceVersionMutationCache is
// NewIntegerResourceVersionMutationCacheWithOptions with room for 100
// mutations.
func NewIntegerResourceVersionMutationCache(logger klog.Logger, backingCache Store, indexer Indexer, ttl time.Duration, includeAdds bool) MutationCache {
	return NewIntegerResourceVersionMutationCacheWithOptions(logger, backingCache, MutationCacheOptions{
		Indexer: indexer, TTL: ttl, IncludeAdds: includeAdds, MaxCacheSize: defaultMutationCacheSize,
	})
}

// NewIntegerResourceVersionMutationCacheWithOptions returns a MutationCache
// for objects whose resource versions are integers that grow with every
// update. Entries added through Mutation are served until the backing
// store holds an equal or newer version, until OnAddOrUpdate/OnDelete
// report the object, or until the TTL passes. See IncludeAdds for objects
// the backing store lacks.
//
// Values that are not runtime.Objects (anything with a key, such as a bare
// metav1.Object) are remembered too, but cannot be compared: such a value
// replaces any earlier mutation, is replaced by any later one, is served
// only while the backing store lacks the key (with IncludeAdds), and is
// forgotten by OnDelete or the TTL, not by OnAddOrUpdate.
func NewIntegerResourceVersionMutationCacheWithOptions(logger klog.Logger, backingCache Store, options MutationCacheOptions) MutationCache {
	ttl := options.TTL
	if ttl <= 0 {
		ttl = defaultMutationCacheTTL
	}
	capacity := options.MaxCacheSize
	if capacity <= 0 {
		capacity = defaultMutationCacheSize
	}
	return &mutationCache{
		logger:       logger,
		backingCache: backingCache,
		indexer:      options.Indexer,
		includeAdds:  options.IncludeAdds,
		recent:       newMutationLRU(capacity, ttl, clock.RealClock{}),
	}
}

// mutationCache implements MutationCache over a small LRU of recent
// mutations and deletion tombstones.
type mutationCache struct {
	logger       klog.Logger
	backingCache Store
	indexer      Indexer
	includeAdds  bool

	// lock guards recent and makes each read of the backing store plus
	// recent one step.
	lock   sync.Mutex
	recent *mutationLRU
}

func (c *mutationCache) internal() {}

// GetByKey returns the newer of the backing object and the mutation. With
// IncludeAdds, a mutation of an object that the backing store lacks is
// returned and, if it is a runtime.Object, forgotten: it counts as seen,
// as client-go's cache does.
func (c *mutationCache) GetByKey(key string) (interface{}, bool, error) {
	c.lock.Lock()
	defer c.lock.Unlock()
	obj, exists, err := c.backingCache.GetByKey(key)
	switch {
	case err != nil:
		return nil, false, err
	case exists:
		return c.preferNewerLocked(key, obj), true, nil
	case !c.includeAdds:
		return nil, false, nil
	}
	e, ok := c.recent.get(key)
	if !ok || e.deleted {
		return nil, false, nil
	}
	if _, comparable := e.value.(runtime.Object); comparable {
		c.recent.remove(key)
	}
	return e.value, true, nil
}

// preferNewerLocked returns the mutation for key if it is a newer version
// of stored than stored itself, and otherwise stored. A mutation the store
// has caught up with is forgotten.
func (c *mutationCache) preferNewerLocked(key string, stored interface{}) interface{} {
	storedObj, comparable := stored.(runtime.Object)
	if !comparable {
		return stored
	}
	e, ok := c.recent.get(key)
	if !ok {
		return stored
	}
	mutated, comparable := e.value.(runtime.Object)
	if !comparable {
		return stored
	}
	if compareIntegerResourceVersions(mutated, storedObj) <= 0 {
		c.recent.remove(key)
		return stored
	}
	if e.deleted {
		return stored
	}
	return mutated
}

// ByIndex returns the indexed objects, each replaced by a newer mutation
// where there is one; with IncludeAdds also the mutations that the index
// function places under indexKey although the indexer lacks them.
func (c *mutationCache) ByIndex(indexName, indexKey string) ([]interface{}, error) {
	if c.indexer == nil {
		return nil, fmt.Errorf("no indexer has been provided to the mutation cache")
	}
	keys, err := c.indexer.IndexKeys(indexName, indexKey)
	if err != nil {
		return nil, err
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	var items []interface{}
	indexed := sets.New[string]()
	for _, key := range keys {
		indexed.Insert(key)
		obj, exists, err := c.indexer.GetByKey(key)
		if err != nil {
			return nil, err
		}
		if exists {
			items = append(items, c.preferNewerLocked(key, obj))
		}
	}
	if !c.includeAdds {
		return items, nil
	}
	indexFunc := c.indexer.GetIndexers()[indexName]
	c.recent.each(func(e *mutationEntry) {
		if e.deleted || indexed.Has(e.key) {
			return
		}
		values, err := indexFunc(e.value)
		if err != nil {
			// A mutation the index function rejects is just left out.
			c.logger.V(4).Info("Cannot index mutation cache entry", "key", e.key, "err", err)
			return
		}
		if slices.Contains(values, indexKey) {
			items = append(items, e.value)
		}
	})
	return items, nil
}

// Mutation records obj, the result of the caller's own write, unless it is
// an older version than the mutation already known or a version of an
// object known to be deleted.
func (c *mutationCache) Mutation(obj interface{}) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleErrorWithLogger(c.logger, err, "DeletionHandlingMetaNamespaceKeyFunc")
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	if prev, ok := c.recent.get(key); ok && isStale(obj, prev) {
		return
	}
	c.recent.put(&mutationEntry{key: key, value: obj})
}

// isStale reports whether a new mutation obj adds nothing to prev: both are
// runtime.Objects and obj is older, or prev is the tombstone of obj's
// version or of the object obj belongs to.
func isStale(obj interface{}, prev *mutationEntry) bool {
	newObj, comparable := obj.(runtime.Object)
	if !comparable {
		return false
	}
	known, comparable := prev.value.(runtime.Object)
	if !comparable {
		return false
	}
	switch order := compareIntegerResourceVersions(newObj, known); {
	case order < 0:
		return true
	case prev.deleted:
		return order == 0 || sameUID(newObj, known)
	}
	return false
}

// OnAddOrUpdate forgets a mutation that obj, as seen by the informer,
// supersedes. Mutations that are not runtime.Objects are kept.
func (c *mutationCache) OnAddOrUpdate(obj runtime.Object) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	e, ok := c.recent.peek(key)
	if !ok {
		return
	}
	if known, comparable := e.value.(runtime.Object); comparable && compareIntegerResourceVersions(known, obj) <= 0 {
		c.recent.remove(key)
	}
}

// OnDelete forgets a mutation that the deletion of obj supersedes: one of
// the same object (same UID), one not newer than obj, or one that cannot
// be compared. A newer mutation of a different object is kept. Otherwise
// obj is remembered as a tombstone for the TTL, so that a late Mutation
// call for the deleted object (same UID, or not newer) is ignored.
func (c *mutationCache) OnDelete(obj runtime.Object) {
	if _, err := meta.Accessor(obj); err != nil {
		return
	}
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	if prev, ok := c.recent.get(key); ok {
		if known, comparable := prev.value.(runtime.Object); comparable &&
			compareIntegerResourceVersions(obj, known) < 0 && !sameUID(obj, known) {
			// A newer, different object may still exist; keep it until
			// the TTL or the informer says otherwise.
			return
		}
	}
	c.recent.put(&mutationEntry{key: key, value: obj, deleted: true})
}

// sameUID reports whether a and b have the same UID.
func sameUID(a, b runtime.Object) bool {
	am, err := meta.Accessor(a)
	if err != nil {
		return false
	}
	bm, err := meta.Accessor(b)
	if err != nil {
		return false
	}
	return am.GetUID() == bm.GetUID()
}

// compareIntegerResourceVersions returns >0 if lhs is newer than rhs. An
// unparsable version counts as oldest.
func compareIntegerResourceVersions(lhs, rhs runtime.Object) int {
	l, lerr := integerResourceVersion(lhs)
	r, rerr := integerResourceVersion(rhs)
	switch {
	case lerr != nil && rerr != nil:
		return 0
	case lerr != nil:
		return -1
	case rerr != nil:
		return 1
	}
	return cmp.Compare(l, r)
}

func integerResourceVersion(obj runtime.Object) (int64, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(m.GetResourceVersion(), 10, 64)
}

// mutationEntry is a remembered mutation or, when deleted is set, the
// tombstone of an object OnDelete reported, kept so that a late Mutation of
// the deleted object is not resurrected.
type mutationEntry struct {
	key     string
	value   interface{}
	deleted bool
	expires time.Time
}

// mutationLRU holds at most capacity entries for ttl each, evicting the
// least recently used. It has no lock: mutationCache's lock guards it.
type mutationLRU struct {
	capacity int
	ttl      time.Duration
	clock    clock.Clock
	byKey    map[string]*list.Element
	// recency holds *mutationEntry, most recently used first.
	recency *list.List
}

func newMutationLRU(capacity int, ttl time.Duration, clk clock.Clock) *mutationLRU {
	return &mutationLRU{capacity: capacity, ttl: ttl, clock: clk, byKey: map[string]*list.Element{}, recency: list.New()}
}

// peek returns the unexpired entry for key without marking it used.
func (l *mutationLRU) peek(key string) (*mutationEntry, bool) {
	el, ok := l.byKey[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*mutationEntry)
	if l.clock.Now().After(e.expires) {
		l.remove(key)
		return nil, false
	}
	return e, true
}

// get returns the unexpired entry for key and marks it used.
func (l *mutationLRU) get(key string) (*mutationEntry, bool) {
	e, ok := l.peek(key)
	if ok {
		l.recency.MoveToFront(l.byKey[key])
	}
	return e, ok
}

// put stores e, replacing the entry of its key, and evicts the least
// recently used entries beyond capacity.
func (l *mutationLRU) put(e *mutationEntry) {
	l.remove(e.key)
	e.expires = l.clock.Now().Add(l.ttl)
	l.byKey[e.key] = l.recency.PushFront(e)
	for l.recency.Len() > l.capacity {
		l.remove(l.recency.Back().Value.(*mutationEntry).key)
	}
}

func (l *mutationLRU) remove(key string) {
	if el, ok := l.byKey[key]; ok {
		l.recency.Remove(el)
		delete(l.byKey, key)
	}
}

// each calls fn for every unexpired entry, most recently used first.
func (l *mutationLRU) each(fn func(*mutationEntry)) {
	now := l.clock.Now()
	for el := l.recency.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*mutationEntry); !now.After(e.expires) {
			fn(e)
		}
	}
}
