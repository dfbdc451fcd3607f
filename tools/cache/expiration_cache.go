package cache

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/clock"
)

// ExpirationCache is a Store whose entries expire. Every entry is stamped
// with its insertion time; expired entries are dropped lazily, when a read
// comes across them, according to an ExpirationPolicy. Reads may delete,
// so they serialize with writes and it is slower than a plain Store.
type ExpirationCache struct {
	// entries maps keys to *TimestampedEntry and does its own locking.
	entries ThreadSafeStore
	keyOf   KeyFunc
	clock   clock.Clock
	policy  ExpirationPolicy
	// deleted, if set, hears every key removed by expiry or Delete
	// (NewFakeExpirationStore reports them on a channel).
	deleted func(key string)

	// mu makes "check expiry, then delete" atomic with respect to writes.
	mu sync.Mutex
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
	if p.TTL <= 0 {
		return false
	}
	return p.Clock.Since(obj.Timestamp) > p.TTL
}

// TimestampedEntry is what an ExpirationCache stores: an object and when it
// was inserted. Timestamps come from the local clock and must not be mixed
// with times from other machines.
type TimestampedEntry struct {
	Obj       interface{}
	Timestamp time.Time
}

// removed reports key to the deleted hook, if any.
func (c *ExpirationCache) removed(key string) {
	if c.deleted != nil {
		c.deleted(key)
	}
}

// liveLocked returns the object under key unless its entry expired, in
// which case the entry is deleted. The caller holds mu.
func (c *ExpirationCache) liveLocked(key string) (interface{}, bool) {
	stored, found := c.entries.Get(key)
	entry, isEntry := stored.(*TimestampedEntry)
	if !found || !isEntry {
		return nil, false
	}
	if !c.policy.IsExpired(entry) {
		return entry.Obj, true
	}
	c.entries.Delete(key)
	c.removed(key)
	return nil, false
}

// GetByKey returns the unexpired object stored under key.
func (c *ExpirationCache) GetByKey(key string) (interface{}, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	obj, found := c.liveLocked(key)
	return obj, found, nil
}

// Get returns the unexpired object stored under obj's key.
func (c *ExpirationCache) Get(obj interface{}) (interface{}, bool, error) {
	key, err := c.keyOf(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	return c.GetByKey(key)
}

// List returns every unexpired object, dropping the expired ones.
func (c *ExpirationCache) List() []interface{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := c.entries.ListKeys()
	live := make([]interface{}, 0, len(keys))
	for _, key := range keys {
		if obj, found := c.liveLocked(key); found {
			live = append(live, obj)
		}
	}
	return live
}

// ListKeys returns every key, expired or not.
func (c *ExpirationCache) ListKeys() []string { return c.entries.ListKeys() }

// Add stores obj with the current time, replacing any entry of its key.
func (c *ExpirationCache) Add(obj interface{}) error {
	return c.writeKey(obj, func(key string) {
		c.entries.Add(key, &TimestampedEntry{Obj: obj, Timestamp: c.clock.Now()})
	})
}

// Update is Add; it refreshes the timestamp.
func (c *ExpirationCache) Update(obj interface{}) error { return c.Add(obj) }

// Delete removes obj's key.
func (c *ExpirationCache) Delete(obj interface{}) error {
	return c.writeKey(obj, func(key string) {
		c.entries.DeleteWithObject(key, obj)
		c.removed(key)
	})
}

// writeKey computes obj's key and runs write with it under mu.
func (c *ExpirationCache) writeKey(obj interface{}, write func(key string)) error {
	key, err := c.keyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	write(key)
	return nil
}

// Replace swaps the content for list, stamping every object with the same
// time.
func (c *ExpirationCache) Replace(list []interface{}, resourceVersion string) error {
	stamp := c.clock.Now()
	byKey := make(map[string]interface{}, len(list))
	for _, obj := range list {
		key, err := c.keyOf(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		byKey[key] = &TimestampedEntry{Obj: obj, Timestamp: stamp}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries.Replace(byKey, resourceVersion)
	return nil
}

// Resync does nothing.
func (c *ExpirationCache) Resync() error { return nil }

// Bookmark records rv as the newest resource version seen.
func (c *ExpirationCache) Bookmark(rv string) { c.entries.Bookmark(rv) }

// LastStoreSyncResourceVersion returns the newest resource version seen.
func (c *ExpirationCache) LastStoreSyncResourceVersion() string {
	return c.entries.LastStoreSyncResourceVersion()
}

// NewTTLStore returns an ExpirationCache whose entries live for ttl.
func NewTTLStore(keyFunc KeyFunc, ttl time.Duration) Store {
	return NewExpirationStore(keyFunc, &TTLPolicy{TTL: ttl, Clock: clock.RealClock{}})
}

// NewExpirationStore returns an ExpirationCache using expirationPolicy.
func NewExpirationStore(keyFunc KeyFunc, expirationPolicy ExpirationPolicy) Store {
	return newExpirationCache(keyFunc, expirationPolicy, clock.RealClock{}, nil)
}

func newExpirationCache(keyFunc KeyFunc, policy ExpirationPolicy, clk clock.Clock, deleted func(string)) *ExpirationCache {
	return &ExpirationCache{
		entries: NewThreadSafeStore(Indexers{}, Indices{}),
		keyOf:   keyFunc,
		clock:   clk,
		policy:  policy,
		deleted: deleted,
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
// every deleted key (expired or deleted explicitly) on deletedKeys and
// uses cacheClock.
func NewFakeExpirationStore(keyFunc KeyFunc, deletedKeys chan<- string, expirationPolicy ExpirationPolicy, cacheClock clock.Clock) Store {
	return newExpirationCache(keyFunc, expirationPolicy, cacheClock, func(key string) { deletedKeys <- key })
}
