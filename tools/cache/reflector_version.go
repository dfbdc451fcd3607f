package cache

import "sync"

// ResourceVersionUpdater is implemented by stores that want to follow the
// reflector's current resource version.
type ResourceVersionUpdater interface {
	// UpdateResourceVersion receives every new resource version the
	// reflector reaches.
	UpdateResourceVersion(resourceVersion string)
}

// resourceVersions is where a reflector stands in the resource's history:
// the version it last synced to, and whether the server said that version
// can no longer be served. Its lock makes LastSyncResourceVersion safe to
// call from any goroutine; only the ListAndWatch goroutine writes.
type resourceVersions struct {
	mu sync.RWMutex
	// last is the version of the last list or applied watch event.
	last string
	// unavailable is set when the server answered "expired" or "too
	// large" for last; the next request is then a consistent read.
	unavailable bool
}

// versionPosition is a copy of a resourceVersions' state.
type versionPosition struct {
	last        string
	unavailable bool
}

func (v *resourceVersions) position() versionPosition {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return versionPosition{last: v.last, unavailable: v.unavailable}
}

func (v *resourceVersions) reached(rv string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.last = rv
}

func (v *resourceVersions) setUnavailable(unavailable bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.unavailable = unavailable
}

// forList is the version to list at: "0" at first (whatever the server has
// cached will do), then the last synced version, or "" (a consistent read)
// after the server said that version is unavailable.
func (p versionPosition) forList() string {
	switch {
	case p.unavailable:
		return ""
	case p.last == "":
		return "0"
	}
	return p.last
}

// forWatchList is the version a watch-list stream starts from: like
// forList, but with "" where forList has "0".
func (p versionPosition) forWatchList() string {
	if p.unavailable {
		return ""
	}
	return p.last
}

// LastSyncResourceVersion returns the resource version the reflector last
// synced to. It is not synchronized with the store's content.
func (r *Reflector) LastSyncResourceVersion() string {
	return r.versions.position().last
}

// reachedVersion records rv as the last synced version and passes it on to
// a store that follows versions.
func (r *Reflector) reachedVersion(rv string) {
	r.versions.reached(rv)
	if u, ok := r.store.(ResourceVersionUpdater); ok {
		u.UpdateResourceVersion(rv)
	}
}
