package events

import (
	"context"

	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	typedeventsv1 "github.com/kubeclient/client-go/kubernetes/typed/events/v1"
)

// EventSinkImpl is the EventSink backed by the events.k8s.io/v1 client. An
// event without a namespace is written to the default namespace.
type EventSinkImpl struct {
	Interface typedeventsv1.EventsV1Interface
}

func eventNamespace(event *eventsv1.Event) string {
	if event.Namespace == "" {
		return metav1.NamespaceDefault
	}
	return event.Namespace
}

// Create creates event and returns the server's copy.
func (e *EventSinkImpl) Create(ctx context.Context, event *eventsv1.Event) (*eventsv1.Event, error) {
	return e.Interface.Events(eventNamespace(event)).Create(ctx, event, metav1.CreateOptions{})
}

// Update replaces event and returns the server's copy.
func (e *EventSinkImpl) Update(ctx context.Context, event *eventsv1.Event) (*eventsv1.Event, error) {
	return e.Interface.Events(eventNamespace(event)).Update(ctx, event, metav1.UpdateOptions{})
}

// Patch applies the strategic merge patch data to event and returns the
// server's copy.
func (e *EventSinkImpl) Patch(ctx context.Context, event *eventsv1.Event, data []byte) (*eventsv1.Event, error) {
	return e.Interface.Events(eventNamespace(event)).Patch(ctx, event.Name, types.StrategicMergePatchType, data, metav1.PatchOptions{})
}
