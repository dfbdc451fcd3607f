package cache

import (
	"fmt"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// informerNames is the process-wide registry of InformerName values.
var informerNames = struct {
	sync.Mutex
	names map[string]*InformerName
}{names: map[string]*InformerName{}}

// InformerName is a process-unique name for a group of informers, used to
// label their metrics. Each GroupVersionResource registered under it via
// WithResource gets metrics only the first time it is registered.
type InformerName struct {
	name     string
	released atomic.Bool

	// mu guards resources.
	mu        sync.Mutex
	resources map[schema.GroupVersionResource]bool
}

// NewInformerName reserves name. It fails if the name is already in use;
// Release frees it again.
func NewInformerName(name string) (*InformerName, error) {
	if name == "" {
		return nil, fmt.Errorf("informer name must not be empty")
	}
	informerNames.Lock()
	defer informerNames.Unlock()
	if _, taken := informerNames.names[name]; taken {
		return nil, fmt.Errorf("informer name %q is already in use", name)
	}
	n := &InformerName{name: name, resources: map[schema.GroupVersionResource]bool{}}
	informerNames.names[name] = n
	return n, nil
}

// ResetInformerNamesForTesting empties the registry of informer names.
func ResetInformerNamesForTesting() {
	informerNames.Lock()
	defer informerNames.Unlock()
	for _, n := range informerNames.names {
		n.released.Store(true)
	}
	informerNames.names = map[string]*InformerName{}
}

// Name returns the reserved name.
func (n *InformerName) Name() string {
	if n == nil {
		return ""
	}
	return n.name
}

// Release gives the name back. Every InformerNameAndResource derived from it
// reports Reserved() == false from now on.
func (n *InformerName) Release() {
	if n == nil || n.released.Swap(true) {
		return
	}
	informerNames.Lock()
	defer informerNames.Unlock()
	if informerNames.names[n.name] == n {
		delete(informerNames.names, n.name)
	}
}

// WithResource registers gvr under the name. Only the first registration of
// a given gvr is reserved for metrics.
func (n *InformerName) WithResource(gvr schema.GroupVersionResource) InformerNameAndResource {
	id := InformerNameAndResource{parent: n, gvr: gvr, reserved: &atomic.Bool{}}
	if n == nil || n.released.Load() {
		return id
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.resources[gvr] {
		n.resources[gvr] = true
		id.reserved.Store(true)
	}
	return id
}

// InformerNameAndResource identifies one informer (a name plus a resource)
// for metrics and logging. The zero value means "no identity".
type InformerNameAndResource struct {
	parent   *InformerName
	gvr      schema.GroupVersionResource
	reserved *atomic.Bool
}

// Name returns the informer name, or "" for the zero value.
func (n InformerNameAndResource) Name() string {
	return n.parent.Name()
}

// GroupVersionResource returns the resource of this identity.
func (n InformerNameAndResource) GroupVersionResource() schema.GroupVersionResource {
	return n.gvr
}

// Reserved reports whether metrics should be published for this identity:
// it is false for the zero value, for duplicate registrations and after the
// parent name was released. It is lock-free.
func (n InformerNameAndResource) Reserved() bool {
	if n.parent == nil || n.reserved == nil {
		return false
	}
	return n.reserved.Load() && !n.parent.released.Load()
}
