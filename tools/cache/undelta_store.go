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

// Add stores obj and pushes the new content.
func (u *UndeltaStore) Add(obj interface{}) error {
	if err := u.Store.Add(obj); err != nil {
		return err
	}
	u.PushFunc(u.Store.List())
	return nil
}

// Update stores obj and pushes the new content.
func (u *UndeltaStore) Update(obj interface{}) error {
	if err := u.Store.Update(obj); err != nil {
		return err
	}
	u.PushFunc(u.Store.List())
	return nil
}

// Delete removes obj and pushes the new content.
func (u *UndeltaStore) Delete(obj interface{}) error {
	if err := u.Store.Delete(obj); err != nil {
		return err
	}
	u.PushFunc(u.Store.List())
	return nil
}

// Replace swaps the content for list and pushes it.
func (u *UndeltaStore) Replace(list []interface{}, resourceVersion string) error {
	if err := u.Store.Replace(list, resourceVersion); err != nil {
		return err
	}
	u.PushFunc(u.Store.List())
	return nil
}

// NewUndeltaStore returns an UndeltaStore over a new Store.
func NewUndeltaStore(pushFunc func([]interface{}), keyFunc KeyFunc) *UndeltaStore {
	return &UndeltaStore{Store: NewStore(keyFunc), PushFunc: pushFunc}
}
