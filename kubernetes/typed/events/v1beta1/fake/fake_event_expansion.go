package fake

import (
	eventsv1beta1 "k8s.io/api/events/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/testing"
)

// CreateWithEventNamespace records a create of event in its own namespace.
func (c *fakeEvents) CreateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
	var action testing.CreateActionImpl
	if c.Namespace() == "" {
		action = testing.NewRootCreateAction(c.Resource(), event)
	} else {
		action = testing.NewCreateAction(c.Resource(), event.Namespace, event)
	}
	return asEvent(c.Fake.Invokes(action, event))
}

// UpdateWithEventNamespace records an update of event in its own namespace.
func (c *fakeEvents) UpdateWithEventNamespace(event *eventsv1beta1.Event) (*eventsv1beta1.Event, error) {
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
func (c *fakeEvents) PatchWithEventNamespace(event *eventsv1beta1.Event, data []byte) (*eventsv1beta1.Event, error) {
	var action testing.PatchActionImpl
	if c.Namespace() == "" {
		action = testing.NewRootPatchAction(c.Resource(), event.Name, types.StrategicMergePatchType, data)
	} else {
		action = testing.NewPatchAction(c.Resource(), event.Namespace, event.Name, types.StrategicMergePatchType, data)
	}
	return asEvent(c.Fake.Invokes(action, event))
}

// asEvent converts the answer of Invokes.
func asEvent(obj runtime.Object, err error) (*eventsv1beta1.Event, error) {
	if obj == nil {
		return nil, err
	}
	return obj.(*eventsv1beta1.Event), err
}
