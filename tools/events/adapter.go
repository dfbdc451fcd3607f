package events

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedv1core "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	typedeventsv1 "github.com/kubeclient/client-go/kubernetes/typed/events/v1"
	"github.com/kubeclient/client-go/tools/record"
)

// eventBroadcasterAdapterImpl records through events.k8s.io/v1 when the
// server serves it (eventsv1Broadcaster set) and through core/v1 otherwise.
type eventBroadcasterAdapterImpl struct {
	coreClient          typedv1core.EventsGetter
	coreBroadcaster     record.EventBroadcaster
	eventsv1Client      typedeventsv1.EventsV1Interface
	eventsv1Broadcaster EventBroadcaster
}

// NewEventBroadcasterAdapter is NewEventBroadcasterAdapterWithContext with
// a background context.
func NewEventBroadcasterAdapter(client kubernetes.Interface) EventBroadcasterAdapter {
	return NewEventBroadcasterAdapterWithContext(context.Background(), client)
}

// NewEventBroadcasterAdapterWithContext asks the server (through
// discovery) whether it serves events.k8s.io/v1 and returns an adapter that
// records through that API if so and through core/v1 events otherwise.
// Cancelling ctx shuts the core/v1 broadcaster down.
func NewEventBroadcasterAdapterWithContext(ctx context.Context, client kubernetes.Interface) EventBroadcasterAdapter {
	a := &eventBroadcasterAdapterImpl{}
	if servesEventsV1(ctx, client) {
		a.eventsv1Client = client.EventsV1()
		a.eventsv1Broadcaster = NewBroadcaster(&EventSinkImpl{Interface: a.eventsv1Client})
	}
	a.coreClient = client.CoreV1()
	a.coreBroadcaster = record.NewBroadcaster(record.WithContext(ctx))
	return a
}

// servesEventsV1 reports whether discovery lists events.k8s.io/v1.
func servesEventsV1(ctx context.Context, client kubernetes.Interface) bool {
	d := client.Discovery()
	if d == nil {
		return false
	}
	gv := eventsv1.SchemeGroupVersion.String()
	if withCtx, ok := any(d).(interface {
		ServerResourcesForGroupVersionWithContext(context.Context, string) (*metav1.APIResourceList, error)
	}); ok {
		_, err := withCtx.ServerResourcesForGroupVersionWithContext(ctx, gv)
		return err == nil
	}
	_, err := d.ServerResourcesForGroupVersion(gv)
	return err == nil
}

func (a *eventBroadcasterAdapterImpl) StartRecordingToSink(stopCh <-chan struct{}) {
	if a.eventsv1Broadcaster != nil && a.eventsv1Client != nil {
		a.eventsv1Broadcaster.StartRecordingToSink(stopCh)
	}
	if a.coreBroadcaster != nil && a.coreClient != nil {
		a.coreBroadcaster.StartRecordingToSink(&coreEventSink{events: a.coreClient.Events("")})
	}
}

func (a *eventBroadcasterAdapterImpl) NewRecorder(name string) EventRecorderLogger {
	if a.eventsv1Broadcaster != nil && a.eventsv1Client != nil {
		return a.eventsv1Broadcaster.NewRecorder(scheme.Scheme, name)
	}
	return record.NewEventRecorderAdapter(a.DeprecatedNewLegacyRecorder(name))
}

func (a *eventBroadcasterAdapterImpl) DeprecatedNewLegacyRecorder(name string) record.EventRecorderLogger {
	return a.coreBroadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: name})
}

func (a *eventBroadcasterAdapterImpl) Shutdown() {
	if a.coreBroadcaster != nil {
		a.coreBroadcaster.Shutdown()
	}
	if a.eventsv1Broadcaster != nil {
		a.eventsv1Broadcaster.Shutdown()
	}
}

// coreEventSink is the record.EventSink over the core/v1 events client; it
// writes each event in the event's own namespace.
type coreEventSink struct {
	events typedv1core.EventInterface
}

func (s *coreEventSink) Create(event *corev1.Event) (*corev1.Event, error) {
	return s.events.CreateWithEventNamespaceWithContext(context.TODO(), event)
}

func (s *coreEventSink) Update(event *corev1.Event) (*corev1.Event, error) {
	return s.events.UpdateWithEventNamespaceWithContext(context.TODO(), event)
}

func (s *coreEventSink) Patch(event *corev1.Event, data []byte) (*corev1.Event, error) {
	return s.events.PatchWithEventNamespaceWithContext(context.TODO(), event, data)
}
