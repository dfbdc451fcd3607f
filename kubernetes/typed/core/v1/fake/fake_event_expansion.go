package fake

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/testing"
	"github.com/kubeclient/client-go/tools/reference"
)

// CreateWithEventNamespace records a create of event in its own namespace.
//
// Deprecated: use CreateWithEventNamespaceWithContext.
func (c *fakeEvents) CreateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.CreateWithEventNamespaceWithContext(context.Background(), event)
}

// CreateWithEventNamespaceWithContext records a create of event in its own
// namespace.
func (c *fakeEvents) CreateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error) {
	var action testing.CreateActionImpl
	if c.Namespace() == "" {
		action = testing.NewRootCreateAction(c.Resource(), event)
	} else {
		action = testing.NewCreateAction(c.Resource(), event.Namespace, event)
	}
	return asEvent(c.Fake.Invokes(action, event))
}

// UpdateWithEventNamespace records an update of event in its own namespace.
//
// Deprecated: use UpdateWithEventNamespaceWithContext.
func (c *fakeEvents) UpdateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.UpdateWithEventNamespaceWithContext(context.Background(), event)
}

// UpdateWithEventNamespaceWithContext records an update of event in its own
// namespace.
func (c *fakeEvents) UpdateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error) {
	var action testing.UpdateActionImpl
	if c.Namespace() == "" {
		action = testing.NewRootUpdateAction(c.Resource(), event)
	} else {
		action = testing.NewUpdateAction(c.Resource(), event.Namespace, event)
	}
	return asEvent(c.Fake.Invokes(action, event))
}

// PatchWithEventNamespace records a strategic merge patch of event in its own
// namespace.
//
// Deprecated: use PatchWithEventNamespaceWithContext.
func (c *fakeEvents) PatchWithEventNamespace(event *corev1.Event, data []byte) (*corev1.Event, error) {
	return c.PatchWithEventNamespaceWithContext(context.Background(), event, data)
}

// PatchWithEventNamespaceWithContext records a strategic merge patch of
// event in its own namespace.
func (c *fakeEvents) PatchWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event, data []byte) (*corev1.Event, error) {
	var action testing.PatchActionImpl
	if c.Namespace() == "" {
		action = testing.NewRootPatchAction(c.Resource(), event.Name, types.StrategicMergePatchType, data)
	} else {
		action = testing.NewPatchAction(c.Resource(), event.Namespace, event.Name, types.StrategicMergePatchType, data)
	}
	return asEvent(c.Fake.Invokes(action, event))
}

// Search lists the events about objOrRef.
//
// Deprecated: use SearchWithContext.
func (c *fakeEvents) Search(scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error) {
	return c.SearchWithContext(context.Background(), scheme, objOrRef)
}

// SearchWithContext lists the events about objOrRef, an object known to
// scheme or an *ObjectReference, with a field selector on involvedObject.
func (c *fakeEvents) SearchWithContext(ctx context.Context, scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error) {
	ref, err := reference.GetReference(scheme, objOrRef)
	if err != nil {
		return nil, err
	}
	if ns := c.Namespace(); ns != "" && ref.Namespace != ns {
		return nil, fmt.Errorf("events of an object in namespace %q cannot be found with a client for namespace %q", ref.Namespace, ns)
	}
	var kind, uid *string
	if ref.Kind != "" {
		kind = &ref.Kind
	}
	if ref.UID != "" {
		s := string(ref.UID)
		uid = &s
	}
	selector := c.GetFieldSelector(&ref.Name, &ref.Namespace, kind, uid)
	return c.List(ctx, metav1.ListOptions{FieldSelector: selector.String()})
}

// GetFieldSelector returns a selector of the events whose involved object
// matches the non-nil arguments.
func (c *fakeEvents) GetFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID *string) fields.Selector {
	set := fields.Set{}
	for key, value := range map[string]*string{
		"involvedObject.name":      involvedObjectName,
		"involvedObject.namespace": involvedObjectNamespace,
		"involvedObject.kind":      involvedObjectKind,
		"involvedObject.uid":       involvedObjectUID,
	} {
		if value != nil {
			set[key] = *value
		}
	}
	return set.AsSelector()
}

// asEvent converts the answer of Invokes.
func asEvent(obj runtime.Object, err error) (*corev1.Event, error) {
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Event), err
}
