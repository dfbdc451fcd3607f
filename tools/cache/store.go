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
	// Writes: Add, Update and Delete change the accumulator of obj's key;
	// Replace swaps the whole content for list, and the store owns list
	// afterwards; Resync has meaning only for queue-like stores such as
	// DeltaFIFO.
	Add(obj interface{}) error
	Update(obj interface{}) error
	Delete(obj interface{}) error
	Replace([]interface{}, string) error
	Resync() error

	// Reads: the accumulator of obj's key or of key; every non-empty
	// accumulator, or their keys.
	Get(obj interface{}) (item interface{}, exists bool, err error)
	GetByKey(key string) (item interface{}, exists bool, err error)
	List() []interface{}
	ListKeys() []string

	// LastStoreSyncResourceVersion returns the newest resource version the
	// store has observed through writes, Replace or Bookmark, which records
	// rv as the newest one seen.
	LastStoreSyncResourceVersion() string
	Bookmark(rv string)
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

// ExplicitKey may be passed to MetaNamespaceKeyFunc in place of an object
// when only its key is known.
type ExplicitKey string

// KeyError wraps an error from a KeyFunc together with the object at fault.
type KeyError struct {
	Obj interface{}
	Err error
}

// Unwrap returns the underlying KeyFunc error.
func (k KeyError) Unwrap() error { return k.Err }

// Error describes the failure and the object.
func (k KeyError) Error() string {
	return fmt.Sprintf("couldn't create key for object %+v: %v", k.Obj, k.Err)
}

// MetaNamespaceKeyFunc is the standard KeyFunc for API objects: the key is
// "<namespace>/<name>", or "<name>" for cluster-scoped objects.
// ObjectToName and MetaObjectToName give the structured equivalent.
func MetaNamespaceKeyFunc(obj interface{}) (string, error) {
	if key, explicit := obj.(ExplicitKey); explicit {
		return string(key), nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("object has no meta: %v", err)
	}
	return MetaObjectToName(m).String(), nil
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

// cacheStorage names the ThreadSafeStore embedded in a cache.
type cacheStorage = ThreadSafeStore

// cache is the Store/Indexer implementation: a ThreadSafeStore plus the
// function that computes keys. The index queries, List, ListKeys, the
// resource version and Resync are the embedded ThreadSafeStore's own; cache
// adds the methods that take objects instead of keys.
type cache struct {
	// cacheStorage does its own locking.
	cacheStorage
	keyFunc KeyFunc
	// transformer, when set, is applied to objects written through Add,
	// Update and Replace, after their key was computed.
	transformer TransformFunc
	// storeOpts are handed on to the ThreadSafeStore (metrics).
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

var _ Indexer = &cache{}

// keyed computes obj's key and, for written objects, applies the
// transformer: the key is always that of the object as given.
func (c *cache) keyed(obj interface{}, transform bool) (string, interface{}, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return "", nil, KeyError{obj, err}
	}
	if !transform || c.transformer == nil {
		return key, obj, nil
	}
	transformed, err := c.transformer(obj)
	if err != nil {
		return "", nil, fmt.Errorf("transforming: %w", err)
	}
	return key, transformed, nil
}

// Add stores obj under its key.
func (c *cache) Add(obj interface{}) error { return c.Update(obj) }

// Update stores obj under its key.
func (c *cache) Update(obj interface{}) error {
	key, stored, err := c.keyed(obj, true)
	if err == nil {
		c.cacheStorage.Update(key, stored)
	}
	return err
}

// Delete removes obj's key; obj's resource version becomes the store's.
func (c *cache) Delete(obj interface{}) error {
	key, _, err := c.keyed(obj, false)
	if err == nil {
		c.cacheStorage.DeleteWithObject(key, obj)
	}
	return err
}

// Get returns the object stored under obj's key.
func (c *cache) Get(obj interface{}) (item interface{}, exists bool, err error) {
	key, _, err := c.keyed(obj, false)
	if err != nil {
		return nil, false, err
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
	byKey := make(map[string]interface{}, len(list))
	for _, obj := range list {
		key, stored, err := c.keyed(obj, true)
		if err != nil {
			return err
		}
		byKey[key] = stored
	}
	c.cacheStorage.Replace(byKey, resourceVersion)
	return nil
}

// Transformer returns the store's transform, if any.
func (c *cache) Transformer() TransformFunc { return c.transformer }

// newCache applies opts and then creates the ThreadSafeStore they
// configure.
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
