package cache

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/clock"
)

// ExpirationCache is a Store whose entries expire. Every entry is stamped
// with its insertion time; expired entries are dropped lazily, when a read
// comes across them, according to an ExpirationPolicy. Reads take a write
// lock, so it is slower than a plain Store.
type ExpirationCache struct {
	cacheStorage     ThreadSafeStore
	keyFunc          KeyFunc
	clock            clock.Clock
	expirationPolicy ExpirationPolicy
	// expirationLock makes "check expiry, then delete" atomic with respect
	// to writes.
	expirationLock sync.Mutex
}

// ExpirationPolicy decides when an entry has expired.
type ExpirationPolicy interface {
	IsExpired(obj *TimestampedEntry) bool
}

// TTLPolicy expires entries older than TTL.
type TTLPolicy struct {
	// TTL is the age after which entries expire; zero or less disables
	// expiry.
	TTL time.Duration

	// Clock measures entry ages.
	Clock clock.Clock
}

// IsExpired reports whether obj is older than the TTL.
func (p *TTLPolicy) IsExpired(obj *TimestampedEntry) bool {
	return p.TTL > 0 && p.Clock.Since(obj.Timestamp) > p.TTL
}

// TimestampedEntry is what an ExpirationCache stores: an object and when it
// was inserted. Timestamps come from the local clock and must not be mixed
// with times from other machines.
type TimestampedEntry struct {
	Obj       interface{}
	Timestamp time.Time
	key       string
}

// getOrExpire returns the live entry for key, deleting it if expired.
func (c *ExpirationCache) getOrExpire(key string) (interface{}, bool) {
	c.expirationLock.Lock()
	defer c.expirationLock.Unlock()
	item, exists := c.cacheStorage.Get(key)
	if !exists {
		return nil, false
	}
	entry, ok := item.(*TimestampedEntry)
	if !ok {
		return nil, false
	}
	if c.expirationPolicy.IsExpired(entry) {
		c.cacheStorage.Delete(key)
		return nil, false
	}
	return entry.Obj, true
}

// GetByKey returns the unexpired object stored under key.
func (c *ExpirationCache) GetByKey(key string) (interface{}, bool, error) {
	obj, exists := c.getOrExpire(key)
	return obj, exists, nil
}

// Get returns the unexpired object stored under obj's key.
func (c *ExpirationCache) Get(obj interface{}) (interface{}, bool, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	item, exists := c.getOrExpire(key)
	return item, exists, nil
}

// List returns every unexpired object, dropping the expired ones.
func (c *ExpirationCache) List() []interface{} {
	items := c.cacheStorage.List()
	list := make([]interface{}, 0, len(items))
	for _, item := range items {
		entry, ok := item.(*TimestampedEntry)
		if !ok {
			continue
		}
		if obj, exists := c.getOrExpire(entry.key); exists {
			list = append(list, obj)
		}
	}
	return list
}

// ListKeys returns every key, expired or not.
func (c *ExpirationCache) ListKeys() []string {
	return c.cacheStorage.ListKeys()
}

// Add stores obj with the current time, replacing any entry of its key.
func (c *ExpirationCache) Add(obj interface{}) error {
	key, err := c.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	c.expirationLock.Lock()
	defer c.expirationLock.Unlock()
	c.cacheStorage.Add(key, &TimestampedEntry{Obj: obj, Timestamp: c.clock.Now(), key: key})
	return nil
}

// Update is Add; it refreshes the timestamp.
func (c *ExpirationCache) Update(obj interface{}) error {
	return c.Add(obj)
}

// Delete removes obj's key.
func (c *ExpirationCache) Delete(obj interface{}) error {
	key, err := c.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	c.expirationLock.Lock()
	defer c.expirationLock.Unlock()
	c.cacheStorage.DeleteWithObject(key, obj)
	return nil
}

// Replace swaps the content for list, stamping every object now.
func (c *ExpirationCache) Replace(list []interface{}, resourceVersion string) error {
	items := make(map[string]interface{}, len(list))
	now := c.clock.Now()
	for _, item := range list {
		key, err := c.keyFunc(item)
		if err != nil {
			return KeyError{item, err}
		}
		items[key] = &TimestampedEntry{Obj: item, Timestamp: now, key: key}
	}
	c.expirationLock.Lock()
	defer c.expirationLock.Unlock()
	c.cacheStorage.Replace(items, resourceVersion)
	return nil
}

// Resync does nothing.
func (c *ExpirationCache) Resync() error { return nil }

// Bookmark records rv as the newest resource version seen.
func (c *ExpirationCache) Bookmark(rv string) { c.cacheStorage.Bookmark(rv) }

// LastStoreSyncResourceVersion returns the newest resource version seen.
func (c *ExpirationCache) LastStoreSyncResourceVersion() string {
	return c.cacheStorage.LastStoreSyncResourceVersion()
}

// NewTTLStore returns an ExpirationCache whose entries live for ttl.
func NewTTLStore(keyFunc KeyFunc, ttl time.Duration) Store {
	return NewExpirationStore(keyFunc, &TTLPolicy{TTL: ttl, Clock: clock.RealClock{}})
}

// NewExpirationStore returns an ExpirationCache using expirationPolicy.
func NewExpirationStore(keyFunc KeyFunc, expirationPolicy ExpirationPolicy) Store {
	return &ExpirationCache{
		cacheStorage:     NewThreadSafeStore(Indexers{}, Indices{}),
		keyFunc:          keyFunc,
		clock:            clock.RealClock{},
		expirationPolicy: expirationPolicy,
	}
}

// FakeExpirationPolicy expires every key except those in NeverExpire.
type FakeExpirationPolicy struct {
	NeverExpire     sets.Set[string]
	RetrieveKeyFunc KeyFunc
}

// IsExpired reports whether obj's key is outside NeverExpire.
func (p *FakeExpirationPolicy) IsExpired(obj *TimestampedEntry) bool {
	key, _ := p.RetrieveKeyFunc(obj)
	return !p.NeverExpire.Has(key)
}

// NewFakeExpirationStore returns an ExpirationCache for tests that reports
// every deleted key on deletedKeys and uses cacheClock.
func NewFakeExpirationStore(keyFunc KeyFunc, deletedKeys chan<- string, expirationPolicy ExpirationPolicy, cacheClock clock.Clock) Store {
	return &ExpirationCache{
		cacheStorage:     &reportingThreadSafeStore{ThreadSafeStore: NewThreadSafeStore(Indexers{}, Indices{}), deletedKeys: deletedKeys},
		keyFunc:          keyFunc,
		clock:            cacheClock,
		expirationPolicy: expirationPolicy,
	}
}

// reportingThreadSafeStore sends every deleted key to a channel.
type reportingThreadSafeStore struct {
	ThreadSafeStore
	deletedKeys chan<- string
}

func (s *reportingThreadSafeStore) Delete(key string) {
	s.ThreadSafeStore.Delete(key)
	s.deletedKeys <- key
}

func (s *reportingThreadSafeStore) DeleteWithObject(key string, obj interface{}) {
	s.ThreadSafeStore.DeleteWithObject(key, obj)
	s.deletedKeys <- key
}
