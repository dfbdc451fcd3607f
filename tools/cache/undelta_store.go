package cache

// UndeltaStore turns incremental changes into complete snapshots: after
// every Add, Update, Delete or Replace it calls PushFunc with the full
// content. Because the write and the snapshot are not atomic together,
// concurrent writers may cause PushFunc to see the same snapshot twice.
// PushFunc must be safe for concurrent use.
type UndeltaStore struct {
	Store
	PushFunc func([]interface{})
}

var _ Store = &UndeltaStore{}

// pushUnless pushes a snapshot of the store after a write that returned
// writeErr, unless the write failed.
func (u *UndeltaStore) pushUnless(writeErr error) error {
	if writeErr == nil {
		u.PushFunc(u.Store.List())
	}
	return writeErr
}

// Add stores obj and pushes the new content.
func (u *UndeltaStore) Add(obj interface{}) error { return u.pushUnless(u.Store.Add(obj)) }

// Update stores obj and pushes the new content.
func (u *UndeltaStore) Update(obj interface{}) error { return u.pushUnless(u.Store.Update(obj)) }

// Delete removes obj and pushes the new content.
func (u *UndeltaStore) Delete(obj interface{}) error { return u.pushUnless(u.Store.Delete(obj)) }

// Replace swaps the content for list and pushes it.
func (u *UndeltaStore) Replace(list []interface{}, resourceVersion string) error {
	return u.pushUnless(u.Store.Replace(list, resourceVersion))
}

// NewUndeltaStore returns an UndeltaStore over a new Store.
func NewUndeltaStore(pushFunc func([]interface{}), keyFunc KeyFunc) *UndeltaStore {
	return &UndeltaStore{Store: NewStore(keyFunc), PushFunc: pushFunc}
}
