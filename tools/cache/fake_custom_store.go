package cache

// FakeCustomStore is a Store made of optional functions, for tests. Unset
// functions do nothing and return zero values.
type FakeCustomStore struct {
	AddFunc                          func(obj interface{}) error
	UpdateFunc                       func(obj interface{}) error
	DeleteFunc                       func(obj interface{}) error
	ListFunc                         func() []interface{}
	ListKeysFunc                     func() []string
	GetFunc                          func(obj interface{}) (item interface{}, exists bool, err error)
	GetByKeyFunc                     func(key string) (item interface{}, exists bool, err error)
	ReplaceFunc                      func(list []interface{}, resourceVersion string) error
	ResyncFunc                       func() error
	BookmarkFunc                     func(rv string)
	LastStoreSyncResourceVersionFunc func() string
}

var _ Store = &FakeCustomStore{}

// Add calls AddFunc if it is set.
func (f *FakeCustomStore) Add(obj interface{}) error { return orZero(f.AddFunc, obj) }

// Update calls UpdateFunc if it is set.
func (f *FakeCustomStore) Update(obj interface{}) error { return orZero(f.UpdateFunc, obj) }

// Delete calls DeleteFunc if it is set.
func (f *FakeCustomStore) Delete(obj interface{}) error { return orZero(f.DeleteFunc, obj) }

// List calls ListFunc if it is set.
func (f *FakeCustomStore) List() []interface{} { return orZero0(f.ListFunc) }

// ListKeys calls ListKeysFunc if it is set.
func (f *FakeCustomStore) ListKeys() []string { return orZero0(f.ListKeysFunc) }

// Get calls GetFunc if it is set.
func (f *FakeCustomStore) Get(obj interface{}) (item interface{}, exists bool, err error) {
	return lookupOrMiss(f.GetFunc, obj)
}

// GetByKey calls GetByKeyFunc if it is set.
func (f *FakeCustomStore) GetByKey(key string) (item interface{}, exists bool, err error) {
	return lookupOrMiss(f.GetByKeyFunc, key)
}

// Replace calls ReplaceFunc if it is set.
func (f *FakeCustomStore) Replace(list []interface{}, resourceVersion string) error {
	if f.ReplaceFunc == nil {
		return nil
	}
	return f.ReplaceFunc(list, resourceVersion)
}

// Resync calls ResyncFunc if it is set.
func (f *FakeCustomStore) Resync() error { return orZero0(f.ResyncFunc) }

// Bookmark calls BookmarkFunc if it is set.
func (f *FakeCustomStore) Bookmark(rv string) { callIfSet(f.BookmarkFunc, rv) }

// LastStoreSyncResourceVersion calls LastStoreSyncResourceVersionFunc if it
// is set.
func (f *FakeCustomStore) LastStoreSyncResourceVersion() string {
	return orZero0(f.LastStoreSyncResourceVersionFunc)
}
