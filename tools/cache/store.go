package cache

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
)

// Store holds objects under string keys, each key mapping to an
// accumulator. It computes keys from objects itself, so most operations
// take just the object.
//
// In the simplest implementations the accumulator is just the latest
// object; queues such as DeltaFIFO accumulate more.
type Store interface {
	// Add adds obj to the accumulator of its key.
	Add(obj interface{}) error

	// Update updates obj in the accumulator of its key.
	Update(obj interface{}) error

	// Delete removes obj from the accumulator of its key.
	Delete(obj interface{}) error

	// List returns every non-empty accumulator.
	List() []interface{}

	// ListKeys returns the keys of every non-empty accumulator.
	ListKeys() []string

	// LastStoreSyncResourceVersion returns the newest resource version the
	// store has observed through writes, Replace or Bookmark.
	LastStoreSyncResourceVersion() string

	// Bookmark records rv as the newest resource version the store has seen.
	Bookmark(rv string)

	// Get returns the accumulator of obj's key.
	Get(obj interface{}) (item interface{}, exists bool, err error)

	// GetByKey returns the accumulator of key.
	GetByKey(key string) (item interface{}, exists bool, err error)

	// Replace swaps the whole content of the store for the given list. The
	// store owns the list afterwards.
	Replace([]interface{}, string) error

	// Resync has meaning only for queue-like stores such as DeltaFIFO.
	Resync() error
}

// ReflectorStore is the part of Store that a Reflector writes through.
type ReflectorStore interface {
	// Add adds obj to the accumulator of its key.
	Add(obj interface{}) error

	// Update updates obj in the accumulator of its key.
	Update(obj interface{}) error

	// Delete removes obj from the accumulator of its key.
	Delete(obj interface{}) error

	// Replace swaps the whole content of the store for the given list. The
	// store owns the list afterwards.
	Replace([]interface{}, string) error

	// Resync has meaning only for queue-like stores such as DeltaFIFO.
	Resync() error
}

// ReflectorBookmarkStore may be implemented by a ReflectorStore that wants to
// hear about bookmark events the Reflector receives.
type ReflectorBookmarkStore interface {
	Bookmark(resourceVersion string) error
}

// TransformingStore is implemented by stores that transform objects before
// storing them; a Reflector applies the same transform to its own
// temporary stores.
type TransformingStore interface {
	ReflectorStore
	Transformer() TransformFunc
}

// TransformFunc rewrites an object before it is stored or queued, typically
// to drop fields a component never reads and so save memory. It sees the
// object before anyone else and may mutate it in place. It should be
// idempotent, and it runs on the hot path of every event, so it must be
// cheap.
type TransformFunc func(interface{}) (interface{}, error)

// KeyFunc computes the storage key of an object. It must be deterministic.
type KeyFunc func(obj interface{}) (string, error)

// KeyError wraps an error from a KeyFunc together with the object at fault.
type KeyError struct {
	Obj interface{}
	Err error
}

// Error describes the failure and the object.
func (k KeyError) Error() string {
	return fmt.Sprintf("couldn't create key for object %+v: %v", k.Obj, k.Err)
}

// Unwrap returns the underlying KeyFunc error.
func (k KeyError) Unwrap() error {
	return k.Err
}

// ExplicitKey may be passed to MetaNamespaceKeyFunc in place of an object
// when only its key is known.
type ExplicitKey string

// MetaNamespaceKeyFunc is the standard KeyFunc for API objects: the key is
// "<namespace>/<name>", or "<name>" for cluster-scoped objects.
// ObjectToName and MetaObjectToName give the structured equivalent.
func MetaNamespaceKeyFunc(obj interface{}) (string, error) {
	if key, ok := obj.(ExplicitKey); ok {
		return string(key), nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("object has no meta: %v", err)
	}
	if ns := m.GetNamespace(); len(ns) > 0 {
		return ns + "/" + m.GetName(), nil
	}
	return m.GetName(), nil
}

// DeletionHandlingMetaNamespaceKeyFunc is MetaNamespaceKeyFunc that returns
// the recorded key of a DeletedFinalStateUnknown tombstone.
func DeletionHandlingMetaNamespaceKeyFunc(obj interface{}) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
}

// DeletedFinalStateUnknown is delivered in place of a deleted object when
// the deletion was noticed by a relist rather than by a watch event, so the
// final state is not known and Obj may be stale.
type DeletedFinalStateUnknown struct {
	Key string
	Obj interface{}
}

// cache is the Store/Indexer implementation: a ThreadSafeStore plus the
// function that computes keys.
type cache struct {
	// cacheStorage does its own locking.
	cacheStorage ThreadSafeStore
	keyFunc      KeyFunc
	// transformer, when set, is applied to objects written through Add,
	// Update and Replace.
	transformer TransformFunc
	// metrics options are handed on to the ThreadSafeStore.
	storeOpts []ThreadSafeStoreOption
}

// StoreOption configures a Store created by NewStore or NewIndexer.
type StoreOption = func(*cache)

// WithTransformer makes the store apply transformer to every object written.
func WithTransformer(transformer TransformFunc) StoreOption {
	return func(c *cache) { c.transformer = transformer }
}

// WithStoreMetrics publishes the store's resource version through metrics
// under identifier.
func WithStoreMetrics(identifier InformerNameAndResource, metrics InformerMetricsProvider) StoreOption {
	return func(c *cache) {
		c.storeOpts = append(c.storeOpts, WithThreadSafeStoreMetrics(identifier, metrics))
	}
}

var _ Store = &cache{}

// transform applies the store's transformer, if any. The key is computed
// from the object before it is transformed.
func (c *cache) transform(obj interface{}) (interface{}, error) {
	if c.transformer == nil {
		return obj, nil
	}
	obj, err := c.transformer(obj)
	if err != nil {
		return nil, fmt.Errorf("transforming: %w", err)
	}
	return obj, nil
}

// Add stores obj under its key.
func (c *cache) Add(obj interface{}) error {
	return c.Update(obj)
}

// Update stores obj under its key.
func (c *cache) Update(obj interface{}) error {
	key, err := c.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	obj, err = c.transform(obj)
	if err != nil {
		return err
	}
	c.cacheStorage.Update(key, obj)
	return nil
}

// Delete removes obj's key.
func (c *cache) Delete(obj interface{}) error {
	key, err := c.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	c.cacheStorage.DeleteWithObject(key, obj)
	return nil
}

// List returns every stored object.
func (c *cache) List() []interface{} { return c.cacheStorage.List() }

// ListKeys returns every stored key.
func (c *cache) ListKeys() []string { return c.cacheStorage.ListKeys() }

// LastStoreSyncResourceVersion returns the newest resource version seen.
func (c *cache) LastStoreSyncResourceVersion() string {
	return c.cacheStorage.LastStoreSyncResourceVersion()
}

// Bookmark records rv as the newest resource version seen.
func (c *cache) Bookmark(rv string) { c.cacheStorage.Bookmark(rv) }

// GetIndexers returns the index functions of the store.
func (c *cache) GetIndexers() Indexers { return c.cacheStorage.GetIndexers() }

// Index returns the objects sharing an indexed value with obj.
func (c *cache) Index(indexName string, obj interface{}) ([]interface{}, error) {
	return c.cacheStorage.Index(indexName, obj)
}

// IndexKeys returns the keys of the objects indexed under indexedValue.
func (c *cache) IndexKeys(indexName, indexedValue string) ([]string, error) {
	return c.cacheStorage.IndexKeys(indexName, indexedValue)
}

// ListIndexFuncValues returns every value of the named index.
func (c *cache) ListIndexFuncValues(indexName string) []string {
	return c.cacheStorage.ListIndexFuncValues(indexName)
}

// ByIndex returns the objects indexed under indexedValue.
func (c *cache) ByIndex(indexName, indexedValue string) ([]interface{}, error) {
	return c.cacheStorage.ByIndex(indexName, indexedValue)
}

// AddIndexers adds index functions, indexing objects already stored.
func (c *cache) AddIndexers(newIndexers Indexers) error {
	return c.cacheStorage.AddIndexers(newIndexers)
}

// Get returns the object stored under obj's key.
func (c *cache) Get(obj interface{}) (item interface{}, exists bool, err error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	return c.GetByKey(key)
}

// GetByKey returns the object stored under key.
func (c *cache) GetByKey(key string) (item interface{}, exists bool, err error) {
	item, exists = c.cacheStorage.Get(key)
	return item, exists, nil
}

// Replace swaps the content of the store for list.
func (c *cache) Replace(list []interface{}, resourceVersion string) error {
	items := make(map[string]interface{}, len(list))
	for _, item := range list {
		key, err := c.keyFunc(item)
		if err != nil {
			return KeyError{item, err}
		}
		item, err = c.transform(item)
		if err != nil {
			return err
		}
		items[key] = item
	}
	c.cacheStorage.Replace(items, resourceVersion)
	return nil
}

// Resync does nothing for a plain store.
func (c *cache) Resync() error { return nil }

// Transformer returns the store's transform, if any.
func (c *cache) Transformer() TransformFunc { return c.transformer }

func newCache(keyFunc KeyFunc, indexers Indexers, opts []StoreOption) *cache {
	c := &cache{keyFunc: keyFunc}
	for _, opt := range opts {
		opt(c)
	}
	c.cacheStorage = NewThreadSafeStore(indexers, Indices{}, c.storeOpts...)
	return c
}

// NewStore returns a Store backed by a map and a lock.
func NewStore(keyFunc KeyFunc, opts ...StoreOption) Store {
	return newCache(keyFunc, Indexers{}, opts)
}

// NewIndexer returns an Indexer backed by a map and a lock.
func NewIndexer(keyFunc KeyFunc, indexers Indexers, opts ...StoreOption) Indexer {
	return newCache(keyFunc, indexers, opts)
}
