package cache

import (
	"container/list"
	"fmt"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
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
func NewIntegerResourceVersionMutationCacheWithOptions(logger klog.Logger, backingCache Store, options MutationCacheOptions) MutationCache {
	if options.TTL <= 0 {
		options.TTL = defaultMutationCacheTTL
	}
	if options.MaxCacheSize <= 0 {
		options.MaxCacheSize = defaultMutationCacheSize
	}
	return &mutationCache{
		logger:       logger,
		backingCache: backingCache,
		indexer:      options.Indexer,
		ttl:          options.TTL,
		includeAdds:  options.IncludeAdds,
		maxSize:      options.MaxCacheSize,
		clock:        clock.RealClock{},
		entries:      map[string]*list.Element{},
		order:        list.New(),
	}
}

type mutationEntry struct {
	key string
	obj runtime.Object
	// deleted marks a tombstone: obj is the object OnDelete reported, kept
	// so that a late Mutation of the deleted object is not resurrected.
	deleted bool
	expires time.Time
}

// mutationCache implements MutationCache with a small LRU.
type mutationCache struct {
	logger       klog.Logger
	backingCache Store
	indexer      Indexer
	ttl          time.Duration
	includeAdds  bool
	maxSize      int
	clock        clock.Clock

	// lock guards entries and order (front = most recently used).
	lock    sync.Mutex
	entries map[string]*list.Element
	order   *list.List
}

func (c *mutationCache) internal() {}

// entryLocked returns the unexpired entry (mutation or tombstone) for key.
func (c *mutationCache) entryLocked(key string) (*mutationEntry, bool) {
	el, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*mutationEntry)
	if c.clock.Now().After(e.expires) {
		c.removeLocked(key)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e, true
}

// mutatedLocked returns the live mutation for key; tombstones do not count.
func (c *mutationCache) mutatedLocked(key string) (runtime.Object, bool) {
	e, ok := c.entryLocked(key)
	if !ok || e.deleted {
		return nil, false
	}
	return e.obj, true
}

// addLocked stores e as the newest entry, evicting the least recently used
// ones beyond maxSize.
func (c *mutationCache) addLocked(e *mutationEntry) {
	c.removeLocked(e.key)
	e.expires = c.clock.Now().Add(c.ttl)
	c.entries[e.key] = c.order.PushFront(e)
	for c.order.Len() > c.maxSize {
		oldest := c.order.Back()
		c.removeLocked(oldest.Value.(*mutationEntry).key)
	}
}

func (c *mutationCache) removeLocked(key string) {
	if el, ok := c.entries[key]; ok {
		c.order.Remove(el)
		delete(c.entries, key)
	}
}

// GetByKey returns the newer of the backing object and the mutation.
func (c *mutationCache) GetByKey(key string) (interface{}, bool, error) {
	c.lock.Lock()
	defer c.lock.Unlock()
	obj, exists, err := c.backingCache.GetByKey(key)
	if err != nil {
		return nil, false, err
	}
	if !exists {
		if !c.includeAdds {
			return nil, false, nil
		}
		mutated, ok := c.mutatedLocked(key)
		if !ok {
			return nil, false, nil
		}
		return mutated, true, nil
	}
	backing, ok := obj.(runtime.Object)
	if !ok {
		return obj, true, nil
	}
	return c.newerLocked(key, backing), true, nil
}

// newerLocked returns the mutation for key if it is newer than backing.
func (c *mutationCache) newerLocked(key string, backing runtime.Object) runtime.Object {
	e, ok := c.entryLocked(key)
	if !ok {
		return backing
	}
	if compareIntegerResourceVersions(e.obj, backing) > 0 {
		if e.deleted {
			return backing
		}
		return e.obj
	}
	// The store caught up; the mutation or tombstone is no longer needed.
	c.removeLocked(key)
	return backing
}

// ByIndex returns the indexed objects, each replaced by a newer mutation
// where there is one.
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
	seen := map[string]struct{}{}
	for _, key := range keys {
		seen[key] = struct{}{}
		obj, exists, err := c.indexer.GetByKey(key)
		if err != nil {
			return nil, err
		}
		if !exists {
			continue
		}
		if ro, ok := obj.(runtime.Object); ok {
			items = append(items, c.newerLocked(key, ro))
		} else {
			items = append(items, obj)
		}
	}
	if c.includeAdds {
		fn := c.indexer.GetIndexers()[indexName]
		for key, el := range c.entries {
			if _, done := seen[key]; done {
				continue
			}
			e := el.Value.(*mutationEntry)
			if e.deleted || c.clock.Now().After(e.expires) {
				continue
			}
			values, err := fn(e.obj)
			if err != nil {
				// A mutation the index function rejects is just left out.
				c.logger.V(4).Info("Cannot index mutation cache entry", "key", key, "err", err)
				continue
			}
			for _, v := range values {
				if v == indexKey {
					items = append(items, e.obj)
					break
				}
			}
		}
	}
	return items, nil
}

// Mutation records obj, the result of the caller's own write.
func (c *mutationCache) Mutation(obj interface{}) {
	ro, ok := obj.(runtime.Object)
	if !ok {
		c.logger.Info("Mutation cache can only track runtime objects", "type", fmt.Sprintf("%T", obj))
		return
	}
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		c.logger.Error(err, "Mutation cache cannot compute key")
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	if prev, ok := c.entryLocked(key); ok {
		cmp := compareIntegerResourceVersions(ro, prev.obj)
		if cmp < 0 {
			// Older than what is already known.
			return
		}
		if prev.deleted && (cmp == 0 || sameUID(ro, prev.obj)) {
			// This object, or another revision of it, was deleted.
			return
		}
	}
	c.addLocked(&mutationEntry{key: key, obj: ro})
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

// OnAddOrUpdate forgets a mutation that obj, as seen by the informer,
// supersedes.
func (c *mutationCache) OnAddOrUpdate(obj runtime.Object) {
	key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return
	}
	if compareIntegerResourceVersions(el.Value.(*mutationEntry).obj, obj) <= 0 {
		c.removeLocked(key)
	}
}

// OnDelete forgets a mutation that the deletion of obj supersedes: one of
// the same object (same UID) or one not newer than obj. A newer mutation
// of a different object is kept. Otherwise obj is remembered as a
// tombstone for the TTL, so that a late Mutation call for the deleted
// object (same UID, or not newer) is ignored.
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
	if prev, ok := c.entryLocked(key); ok {
		if compareIntegerResourceVersions(obj, prev.obj) < 0 && !sameUID(obj, prev.obj) {
			// A newer, different object may still exist; keep it until
			// the TTL or the informer says otherwise.
			return
		}
	}
	c.addLocked(&mutationEntry{key: key, obj: obj, deleted: true})
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
	case l < r:
		return -1
	case l > r:
		return 1
	}
	return 0
}

func integerResourceVersion(obj runtime.Object) (int64, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(m.GetResourceVersion(), 10, 64)
}
