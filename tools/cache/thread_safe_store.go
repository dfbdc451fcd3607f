package cache

import (
	"strconv"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/sets"
)

// ThreadSafeStore is an indexed map that is safe for concurrent use. Unlike
// Indexer it is addressed by explicit storage keys.
//
// Objects returned by Get, List and the index queries are the stored
// objects themselves: callers must treat them as read-only, both for thread
// safety and because mutating them would silently corrupt the indices.
type ThreadSafeStore interface {
	// Writes. Delete is DeleteWithObject(key, nil); it cannot advance the
	// store's resource version and is therefore discouraged.
	Add(key string, obj interface{})
	Update(key string, obj interface{})
	DeleteWithObject(key string, obj interface{})
	Delete(key string)
	Replace(map[string]interface{}, string)

	// Reads by storage key.
	Get(key string) (item interface{}, exists bool)
	ListKeys() []string
	List() []interface{}

	// Reads through an index.
	ByIndex(indexName, indexedValue string) ([]interface{}, error)
	Index(indexName string, obj interface{}) ([]interface{}, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	ListIndexFuncValues(name string) []string
	GetIndexers() Indexers
	// AddIndexers adds index functions; stored objects are indexed at once.
	AddIndexers(newIndexers Indexers) error

	// The newest resource version seen.
	LastStoreSyncResourceVersion() string
	Bookmark(rv string)

	// Resync does nothing and is deprecated.
	Resync() error
}

// ThreadSafeStoreWithTransaction is a ThreadSafeStore that can apply several
// writes under one lock acquisition.
type ThreadSafeStoreWithTransaction interface {
	ThreadSafeStore
	// Transaction applies all fns in order under one lock.
	Transaction(fns ...ThreadSafeStoreTransaction)
}

// ThreadSafeStoreTransaction is a Transaction addressed to a storage key.
type ThreadSafeStoreTransaction struct {
	Transaction
	Key string
}

// threadSafeMap implements ThreadSafeStore.
type threadSafeMap struct {
	// lock guards items, index and rv.
	lock  sync.RWMutex
	items itemTable
	index *storeIndex
	// rv is the newest resource version observed through writes.
	rv string

	// rvGauge, if set, mirrors rv as a number.
	rvGauge GaugeMetric
}

// ThreadSafeStoreOption configures a ThreadSafeStore.
type ThreadSafeStoreOption = func(*threadSafeMap)

// WithThreadSafeStoreMetrics publishes the store's resource version as a
// gauge under identifier.
func WithThreadSafeStoreMetrics(identifier InformerNameAndResource, metricsProvider InformerMetricsProvider) ThreadSafeStoreOption {
	enabled := metricsProvider != nil && identifier.Name() != ""
	return func(m *threadSafeMap) {
		if enabled {
			m.rvGauge = metricsProvider.NewStoreResourceVersionMetric(identifier)
		}
	}
}

var _ ThreadSafeStoreWithTransaction = &threadSafeMap{}

// NewThreadSafeStore returns a ThreadSafeStore maintaining the given indices.
func NewThreadSafeStore(indexers Indexers, indices Indices, opts ...ThreadSafeStoreOption) ThreadSafeStore {
	if indexers == nil {
		indexers = Indexers{}
	}
	if indices == nil {
		indices = Indices{}
	}
	m := &threadSafeMap{
		items: newItemTable(0),
		index: newStoreIndex(indexers, indices),
	}
	for _, opt := range opts {
		opt(m)
	}
	return m
}

func resourceVersionOf(obj interface{}) (string, bool) {
	if obj == nil {
		return "", false
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", false
	}
	return m.GetResourceVersion(), true
}

// setRVLocked records rv; the caller holds the write lock.
func (c *threadSafeMap) setRVLocked(rv string) {
	c.rv = rv
	if c.rvGauge != nil && rv != "" {
		if n, err := strconv.ParseInt(rv, 10, 64); err == nil {
			c.rvGauge.Set(float64(n))
		}
	}
}

func (c *threadSafeMap) Add(key string, obj interface{}) {
	c.Update(key, obj)
}

func (c *threadSafeMap) Update(key string, obj interface{}) {
	rv, hasRV := resourceVersionOf(obj)
	c.lock.Lock()
	defer c.lock.Unlock()
	c.updateLocked(key, obj)
	if hasRV {
		c.setRVLocked(rv)
	}
}

func (c *threadSafeMap) updateLocked(key string, obj interface{}) {
	old := c.items.set(key, obj)
	c.index.update(old, obj, key)
}

func (c *threadSafeMap) deleteLocked(key string) {
	if old, exists := c.items.get(key); exists {
		c.index.update(old, nil, key)
		c.items.delete(key)
	}
}

func (c *threadSafeMap) Delete(key string) {
	c.DeleteWithObject(key, nil)
}

func (c *threadSafeMap) DeleteWithObject(key string, obj interface{}) {
	rv, hasRV := resourceVersionOf(obj)
	c.lock.Lock()
	defer c.lock.Unlock()
	c.deleteLocked(key)
	if hasRV {
		c.setRVLocked(rv)
	}
}

// Transaction applies txns in order under a single lock acquisition. The
// store's resource version becomes that of the last object.
func (c *threadSafeMap) Transaction(txns ...ThreadSafeStoreTransaction) {
	if len(txns) == 0 {
		return
	}
	rv, hasRV := resourceVersionOf(txns[len(txns)-1].Object)
	c.lock.Lock()
	defer c.lock.Unlock()
	for _, txn := range txns {
		switch txn.Type {
		case TransactionTypeAdd, TransactionTypeUpdate:
			c.updateLocked(txn.Key, txn.Object)
		case TransactionTypeDelete:
			c.deleteLocked(txn.Key)
		}
	}
	if hasRV {
		c.setRVLocked(rv)
	}
}

func (c *threadSafeMap) Get(key string) (item interface{}, exists bool) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.items.get(key)
}

func (c *threadSafeMap) List() []interface{} {
	c.lock.RLock()
	defer c.lock.RUnlock()
	list := make([]interface{}, 0, c.items.len())
	c.items.each(func(_ string, item interface{}) bool {
		list = append(list, item)
		return true
	})
	return list
}

func (c *threadSafeMap) ListKeys() []string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	list := make([]string, 0, c.items.len())
	c.items.each(func(key string, _ interface{}) bool {
		list = append(list, key)
		return true
	})
	return list
}

func (c *threadSafeMap) Replace(items map[string]interface{}, resourceVersion string) {
	table := newItemTable(len(items))
	for key, item := range items {
		table.set(key, item)
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	c.items = table
	c.setRVLocked(resourceVersion)
	c.index.reset()
	c.items.each(func(key string, item interface{}) bool {
		c.index.update(nil, item, key)
		return true
	})
}

func (c *threadSafeMap) Index(indexName string, obj interface{}) ([]interface{}, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.objectsLocked(c.index.keysForObject(indexName, obj))
}

func (c *threadSafeMap) ByIndex(indexName, indexedValue string) ([]interface{}, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.objectsLocked(c.index.keysForValue(indexName, indexedValue))
}

// objectsLocked returns the objects stored under keys, or err. The caller
// holds the lock.
func (c *threadSafeMap) objectsLocked(keys sets.Set[string], err error) ([]interface{}, error) {
	if err != nil {
		return nil, err
	}
	objs := make([]interface{}, 0, len(keys))
	for key := range keys {
		obj, _ := c.items.get(key)
		objs = append(objs, obj)
	}
	return objs, nil
}

func (c *threadSafeMap) IndexKeys(indexName, indexedValue string) ([]string, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys, err := c.index.keysForValue(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return keys.UnsortedList(), nil
}

func (c *threadSafeMap) ListIndexFuncValues(indexName string) []string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.index.values(indexName)
}

func (c *threadSafeMap) GetIndexers() Indexers {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.index.indexers
}

func (c *threadSafeMap) AddIndexers(newIndexers Indexers) error {
	c.lock.Lock()
	defer c.lock.Unlock()
	if err := c.index.addIndexers(newIndexers); err != nil {
		return err
	}
	c.items.each(func(key string, item interface{}) bool {
		for name := range newIndexers {
			c.index.updateOne(name, nil, item, key)
		}
		return true
	})
	return nil
}

func (c *threadSafeMap) Bookmark(rv string) {
	c.lock.Lock()
	defer c.lock.Unlock()
	c.setRVLocked(rv)
}

// LastStoreSyncResourceVersion returns the newest resource version the
// store has seen, or "" when the AtomicFIFO feature gate is off (see
// fifo_gates.go).
func (c *threadSafeMap) LastStoreSyncResourceVersion() string {
	if !atomicFIFO() {
		return ""
	}
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.rv
}

func (c *threadSafeMap) Resync() error { return nil }
