package fake

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/resourcefake"
	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/testing"
)

// listGVK is the kind under which the fake registers metav1.List in the
// scheme it is given; the tracker builds the answers of List from it.
var listGVK = schema.GroupVersionKind{Group: "fake-metadata-client-group", Version: "v1", Kind: "List"}

// MetadataClient is implemented by the resource clients of
// FakeMetadataClient. The metadata API cannot create or replace objects, so
// tests use these methods to change the stored objects through the client
// (for example to drive an informer):
//
//	client.Resource(gvr).Namespace("ns").(fake.MetadataClient).CreateFake(obj, metav1.CreateOptions{})
type MetadataClient interface {
	metadata.Getter
	CreateFake(obj *metav1.PartialObjectMetadata, opts metav1.CreateOptions, subresources ...string) (*metav1.PartialObjectMetadata, error)
	UpdateFake(obj *metav1.PartialObjectMetadata, opts metav1.UpdateOptions, subresources ...string) (*metav1.PartialObjectMetadata, error)
}

// NewTestScheme returns a new, empty scheme, so that each test registers
// its kinds without affecting others.
func NewTestScheme() *runtime.Scheme {
	return runtime.NewScheme()
}

// FakeMetadataClient is a metadata.Interface backed by a
// testing.ObjectTracker. The embedded testing.Fake records actions and holds
// the reactor chains, which tests may extend.
type FakeMetadataClient struct {
	testing.Fake

	scheme  *runtime.Scheme
	tracker testing.ObjectTracker
}

var (
	_ metadata.Interface = &FakeMetadataClient{}
	_ testing.FakeClient = &FakeMetadataClient{}
)

// NewSimpleMetadataClient returns a FakeMetadataClient holding objects,
// normally *metav1.PartialObjectMetadata with apiVersion and kind set (the
// resource is guessed from the kind: Widget -> widgets). scheme gains a list
// kind the fake needs. It panics when an object cannot be stored, which is
// an error in the test's setup.
func NewSimpleMetadataClient(scheme *runtime.Scheme, objects ...runtime.Object) *FakeMetadataClient {
	if !scheme.Recognizes(listGVK) {
		scheme.AddKnownTypeWithName(listGVK, &metav1.List{})
	}
	tracker := testing.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDeserializer())
	for _, obj := range objects {
		if err := tracker.Add(obj); err != nil {
			panic(fmt.Sprintf("metadata fake: cannot add %T to the tracker: %v", obj, err))
		}
	}
	c := &FakeMetadataClient{scheme: scheme, tracker: tracker}
	c.AddReactor("*", "*", testing.ObjectReaction(tracker))
	c.AddWatchReactor("*", resourcefake.WatchTracker(tracker, partialEvent))
	return c
}

// partialEvent reduces the object of a watch event to its metadata, leaving
// the Status of an ERROR event as it is.
func partialEvent(ev watch.Event) (watch.Event, bool) {
	if ev.Type == watch.Error || ev.Object == nil {
		return ev, true
	}
	if p, err := asPartial(ev.Object); err == nil {
		ev.Object = p
	}
	return ev, true
}

// Tracker returns the tracker holding the client's objects.
func (c *FakeMetadataClient) Tracker() testing.ObjectTracker {
	return c.tracker
}

// Resource returns a client for resource, at cluster scope until narrowed
// with Namespace. It also implements MetadataClient.
func (c *FakeMetadataClient) Resource(resource schema.GroupVersionResource) metadata.Getter {
	return &resourceClient{client: c, resource: resource}
}

// IsWatchListSemanticsUnSupported reports true: the fake does not serve
// watch-list streams, so informers list and then watch.
func (c *FakeMetadataClient) IsWatchListSemanticsUnSupported() bool {
	return true
}

// asPartial returns obj as PartialObjectMetadata: as it is when it already
// is one, otherwise its metadata and kind.
func asPartial(obj runtime.Object) (*metav1.PartialObjectMetadata, error) {
	if p, ok := obj.(*metav1.PartialObjectMetadata); ok {
		return p, nil
	}
	if _, isStatus := obj.(*metav1.Status); isStatus {
		return nil, fmt.Errorf("unexpected return value type %T", obj)
	}
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("unexpected return value type %T: %w", obj, err)
	}
	p := meta.AsPartialObjectMetadata(accessor)
	p.SetGroupVersionKind(obj.GetObjectKind().GroupVersionKind())
	return p, nil
}
