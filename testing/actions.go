package testing

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Action is one request made through a fake client: the verb, the resource
// it addresses and, depending on the concrete type, its payload.
type Action interface {
	GetNamespace() string
	GetVerb() string
	GetResource() schema.GroupVersionResource
	GetSubresource() string
	Matches(verb, resource string) bool

	// DeepCopy returns an independent copy of the action, so that reactors
	// and the recorded history never share mutable state with the caller.
	DeepCopy() Action
}

// GenericAction is an action carrying an arbitrary value.
type GenericAction interface {
	Action
	GetValue() interface{}
}

// GetAction reads one named object.
type GetAction interface {
	Action
	GetName() string
}

// ListAction reads a collection restricted by selectors.
type ListAction interface {
	Action
	GetListRestrictions() ListRestrictions
}

// CreateAction creates an object.
type CreateAction interface {
	Action
	GetObject() runtime.Object
}

// UpdateAction replaces an object.
type UpdateAction interface {
	Action
	GetObject() runtime.Object
}

// DeleteAction deletes one named object.
type DeleteAction interface {
	Action
	GetName() string
	GetDeleteOptions() metav1.DeleteOptions
}

// DeleteCollectionAction deletes every object matching selectors.
type DeleteCollectionAction interface {
	Action
	GetListRestrictions() ListRestrictions
}

// PatchAction modifies one named object with a patch document.
type PatchAction interface {
	Action
	GetName() string
	GetPatchType() types.PatchType
	GetPatch() []byte
}

// WatchAction opens a watch restricted by selectors and a resourceVersion.
type WatchAction interface {
	Action
	GetWatchRestrictions() WatchRestrictions
}

// ProxyGetAction is a GET proxied through the API server to a pod, service
// or node.
type ProxyGetAction interface {
	Action
	GetScheme() string
	GetName() string
	GetPort() string
	GetPath() string
	GetParams() map[string]string
}

// ListRestrictions are the selectors of a list or delete-collection action.
type ListRestrictions struct {
	Labels labels.Selector
	Fields fields.Selector
}

// WatchRestrictions are the selectors and starting resourceVersion of a
// watch action.
type WatchRestrictions struct {
	Labels          labels.Selector
	Fields          fields.Selector
	ResourceVersion string
}
