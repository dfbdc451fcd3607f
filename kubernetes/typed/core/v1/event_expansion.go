package v1

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/tools/reference"
)

// EventExpansion holds the hand-written methods of EventInterface. The
// *WithEventNamespace methods address the event's own namespace, which lets
// a client made for all namespaces ("") write events anywhere.
type EventExpansion interface {
	// Deprecated: use CreateWithEventNamespaceWithContext.
	CreateWithEventNamespace(event *corev1.Event) (*corev1.Event, error)
	// Deprecated: use UpdateWithEventNamespaceWithContext.
	UpdateWithEventNamespace(event *corev1.Event) (*corev1.Event, error)
	// Deprecated: use PatchWithEventNamespaceWithContext.
	PatchWithEventNamespace(event *corev1.Event, data []byte) (*corev1.Event, error)
	// Deprecated: use SearchWithContext.
	Search(scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error)

	CreateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error)
	UpdateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error)
	PatchWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event, data []byte) (*corev1.Event, error)
	SearchWithContext(ctx context.Context, scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error)
	// GetFieldSelector returns a selector of the events about the object
	// described by its arguments; nil arguments are not constrained.
	GetFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID *string) fields.Selector
}

// checkEventNamespace rejects events outside the client's namespace when the
// client is bound to one.
func (c *events) checkEventNamespace(verb string, event *corev1.Event) error {
	if ns := c.GetNamespace(); ns != "" && event.Namespace != ns {
		return fmt.Errorf("cannot %s an event in namespace %q with a client for namespace %q", verb, event.Namespace, ns)
	}
	return nil
}

// CreateWithEventNamespace is CreateWithEventNamespaceWithContext with a
// background context.
//
// Deprecated: use CreateWithEventNamespaceWithContext.
func (c *events) CreateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.CreateWithEventNamespaceWithContext(context.Background(), event)
}

// CreateWithEventNamespaceWithContext creates event in its own namespace and
// returns the stored event.
func (c *events) CreateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error) {
	if err := c.checkEventNamespace("create", event); err != nil {
		return nil, err
	}
	stored := &corev1.Event{}
	err := c.GetClient().Post().
		NamespaceIfScoped(event.Namespace, event.Namespace != "").
		Resource("events").
		Body(event).
		Do(ctx).
		Into(stored)
	return stored, err
}

// UpdateWithEventNamespace is UpdateWithEventNamespaceWithContext with a
// background context.
//
// Deprecated: use UpdateWithEventNamespaceWithContext.
func (c *events) UpdateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.UpdateWithEventNamespaceWithContext(context.Background(), event)
}

// UpdateWithEventNamespaceWithContext replaces event in its own namespace and
// returns the stored event.
func (c *events) UpdateWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event) (*corev1.Event, error) {
	if err := c.checkEventNamespace("update", event); err != nil {
		return nil, err
	}
	stored := &corev1.Event{}
	err := c.GetClient().Put().
		NamespaceIfScoped(event.Namespace, event.Namespace != "").
		Resource("events").
		Name(event.Name).
		Body(event).
		Do(ctx).
		Into(stored)
	return stored, err
}

// PatchWithEventNamespace is PatchWithEventNamespaceWithContext with a
// background context.
//
// Deprecated: use PatchWithEventNamespaceWithContext.
func (c *events) PatchWithEventNamespace(event *corev1.Event, data []byte) (*corev1.Event, error) {
	return c.PatchWithEventNamespaceWithContext(context.Background(), event, data)
}

// PatchWithEventNamespaceWithContext applies the strategic merge patch data
// to the event named by event (only its name and namespace are used) and
// returns the patched event.
func (c *events) PatchWithEventNamespaceWithContext(ctx context.Context, event *corev1.Event, data []byte) (*corev1.Event, error) {
	if err := c.checkEventNamespace("patch", event); err != nil {
		return nil, err
	}
	stored := &corev1.Event{}
	err := c.GetClient().Patch(types.StrategicMergePatchType).
		NamespaceIfScoped(event.Namespace, event.Namespace != "").
		Resource("events").
		Name(event.Name).
		Body(data).
		Do(ctx).
		Into(stored)
	return stored, err
}

// Search is SearchWithContext with a background context.
//
// Deprecated: use SearchWithContext.
func (c *events) Search(scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error) {
	return c.SearchWithContext(context.Background(), scheme, objOrRef)
}

// SearchWithContext lists the events about objOrRef, an object known to
// scheme or an *ObjectReference.
func (c *events) SearchWithContext(ctx context.Context, scheme *runtime.Scheme, objOrRef runtime.Object) (*corev1.EventList, error) {
	ref, err := reference.GetReference(scheme, objOrRef)
	if err != nil {
		return nil, err
	}
	if ns := c.GetNamespace(); ns != "" && ref.Namespace != ns {
		return nil, fmt.Errorf("events of an object in namespace %q cannot be found with a client for namespace %q", ref.Namespace, ns)
	}
	optional := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	selector := c.GetFieldSelector(&ref.Name, &ref.Namespace, optional(ref.Kind), optional(string(ref.UID)))
	return c.List(ctx, metav1.ListOptions{FieldSelector: selector.String()})
}

// GetFieldSelector returns a field selector matching the events whose
// involved object has the given name, namespace, kind and UID; nil
// arguments are left out.
func (c *events) GetFieldSelector(involvedObjectName, involvedObjectNamespace, involvedObjectKind, involvedObjectUID *string) fields.Selector {
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

// GetInvolvedObjectNameFieldLabel returns the field label that selects events
// by the name of their involved object. Every API version uses the same one.
func GetInvolvedObjectNameFieldLabel(version string) string {
	return "involvedObject.name"
}

// EventSinkImpl adapts an EventInterface to the event sink of
// tools/record: events are written to their own namespace.
type EventSinkImpl struct {
	Interface EventInterface
}

// Create writes a new event.
func (e *EventSinkImpl) Create(event *corev1.Event) (*corev1.Event, error) {
	return e.Interface.CreateWithEventNamespace(event)
}

// Update replaces an existing event.
func (e *EventSinkImpl) Update(event *corev1.Event) (*corev1.Event, error) {
	return e.Interface.UpdateWithEventNamespace(event)
}

// Patch applies a strategic merge patch to an existing event.
func (e *EventSinkImpl) Patch(event *corev1.Event, data []byte) (*corev1.Event, error) {
	return e.Interface.PatchWithEventNamespace(event, data)
}
