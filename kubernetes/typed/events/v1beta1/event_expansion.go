package v1beta1

import (
	"context"
	"fmt"

	eventsv1beta1 "k8s.io/api/events/v1beta1"
	"k8s.io/apimachinery/pkg/types"
)

// EventExpansion holds the hand-written methods of EventInterface. They
// address the event's own namespace, which lets a client made for all
// namespaces ("") write events anywhere.
type EventExpansion interface {
	CreateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error)
	UpdateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error)
	PatchWithEventNamespace(event *eventsv1beta1.Event, data []byte) (*eventsv1beta1.Event, error)
}

func (c *events) checkEventNamespace(verb string, event *eventsv1beta1.Event) error {
	if ns := c.GetNamespace(); ns != "" && event.Namespace != ns {
		return fmt.Errorf("cannot %s an event in namespace %q with a client for namespace %q", verb, event.Namespace, ns)
	}
	return nil
}

// CreateWithEventNamespace creates event in its own namespace and returns
// the stored event.
func (c *events) CreateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
	if err := c.checkEventNamespace("create", event); err != nil {
		return nil, err
	}
	stored := &eventsv1beta1.Event{}
	err := c.GetClient().Post().
		NamespaceIfScoped(event.Namespace, event.Namespace != "").
		Resource("events").
		Body(event).
		Do(context.TODO()).
		Into(stored)
	return stored, err
}

// UpdateWithEventNamespace replaces event in its own namespace and returns
// the stored event.
func (c *events) UpdateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
	if err := c.checkEventNamespace("update", event); err != nil {
		return nil, err
	}
	stored := &eventsv1beta1.Event{}
	err := c.GetClient().Put().
		NamespaceIfScoped(event.Namespace, event.Namespace != "").
		Resource("events").
		Name(event.Name).
		Body(event).
		Do(context.TODO()).
		Into(stored)
	return stored, err
}

// PatchWithEventNamespace applies the strategic merge patch data to the
// event named by event and returns the patched event.
func (c *events) PatchWithEventNamespace(event *eventsv1beta1.Event, data []byte) (*eventsv1beta1.Event, error) {
	if err := c.checkEventNamespace("patch", event); err != nil {
		return nil, err
	}
	stored := &eventsv1beta1.Event{}
	err := c.GetClient().Patch(types.StrategicMergePatchType).
		NamespaceIfScoped(event.Namespace, event.Namespace != "").
		Resource("events").
		Name(event.Name).
		Body(data).
		Do(context.TODO()).
		Into(stored)
	return stored, err
}
