package fake

import (
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/internal/resourcefake"
	"github.com/kubeclient/client-go/testing"
)

// FakeDynamicClient is a dynamic.Interface backed by a testing.ObjectTracker.
// The embedded testing.Fake records actions and holds the reactor chains;
// tests may add reactors to it to change answers or inject errors.
type FakeDynamicClient struct {
	testing.Fake

	// scheme converts typed objects the tracker hands back into
	// unstructured ones and knows the list kinds registered for resources.
	scheme *runtime.Scheme
	// listKinds maps each resource to the kind of its list ("WidgetList"),
	// which List needs to build its answer when there are no items.
	listKinds map[schema.GroupVersionResource]string
	tracker   testing.ObjectTracker
}

var (
	_ dynamic.Interface  = &FakeDynamicClient{}
	_ testing.FakeClient = &FakeDynamicClient{}
)

// NewSimpleDynamicClient returns a FakeDynamicClient holding objects. Every
// kind known to scheme, and the kind of every object, is served as
// unstructured; typed objects are converted to unstructured before they are
// stored. The list kind of a resource is guessed as "<Kind>List" for each
// kind, with the resource name guessed from the kind (Widget -> widgets);
// use NewSimpleDynamicClientWithCustomListKinds when the guess is wrong.
func NewSimpleDynamicClient(scheme *runtime.Scheme, objects ...runtime.Object) *FakeDynamicClient {
	served := runtime.NewScheme()
	register := func(gvk schema.GroupVersionKind) {
		if served.Recognizes(gvk) {
			return
		}
		if strings.HasSuffix(gvk.Kind, "List") {
			served.AddKnownTypeWithName(gvk, &unstructured.UnstructuredList{})
		} else {
			served.AddKnownTypeWithName(gvk, &unstructured.Unstructured{})
		}
	}
	for gvk := range scheme.AllKnownTypes() {
		register(gvk)
	}

	converted := make([]runtime.Object, 0, len(objects))
	for _, obj := range objects {
		u, err := toUnstructured(scheme, obj)
		if err != nil {
			panic(fmt.Sprintf("dynamic fake: cannot store %T: %v", obj, err))
		}
		gvk := u.GroupVersionKind()
		register(gvk)
		register(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		converted = append(converted, u)
	}
	return NewSimpleDynamicClientWithCustomListKinds(served, nil, converted...)
}

// NewSimpleDynamicClientWithCustomListKinds returns a FakeDynamicClient
// holding objects as given, with gvrToListKind naming the list kind of
// resources whose list kind cannot be guessed from scheme. Every list kind
// must end in "List"; one that is not in scheme is registered in it as an
// unstructured list. It panics on objects the tracker rejects (a duplicate
// name, an object without a kind) and on list kinds without the suffix,
// which are errors in the test's setup.
func NewSimpleDynamicClientWithCustomListKinds(scheme *runtime.Scheme, gvrToListKind map[schema.GroupVersionResource]string, objects ...runtime.Object) *FakeDynamicClient {
	listKinds := map[schema.GroupVersionResource]string{}
	for gvk := range scheme.AllKnownTypes() {
		itemKind, isList := strings.CutSuffix(gvk.Kind, "List")
		if !isList || itemKind == "" {
			continue
		}
		plural, _ := meta.UnsafeGuessKindToResource(gvk.GroupVersion().WithKind(itemKind))
		listKinds[plural] = gvk.Kind
	}
	for gvr, listKind := range gvrToListKind {
		if !strings.HasSuffix(listKind, "List") {
			panic(fmt.Sprintf("dynamic fake: list kind %q of %s must end in \"List\"", listKind, gvr))
		}
		listGVK := gvr.GroupVersion().WithKind(listKind)
		if !scheme.Recognizes(listGVK) {
			scheme.AddKnownTypeWithName(listGVK, &unstructured.UnstructuredList{})
		}
		listKinds[gvr] = listKind
	}

	tracker := testing.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDecoder())
	for _, obj := range objects {
		if err := tracker.Add(obj); err != nil {
			panic(fmt.Sprintf("dynamic fake: cannot add %T to the tracker: %v", obj, err))
		}
	}

	c := &FakeDynamicClient{scheme: scheme, listKinds: listKinds, tracker: tracker}
	c.AddReactor("*", "*", testing.ObjectReaction(tracker))
	c.AddWatchReactor("*", resourcefake.WatchTracker(tracker, c.unstructuredEvent))
	return c
}

// unstructuredEvent converts the object of a watch event to unstructured,
// leaving the Status of an ERROR event as it is.
func (c *FakeDynamicClient) unstructuredEvent(ev watch.Event) (watch.Event, bool) {
	if ev.Type == watch.Error || ev.Object == nil {
		return ev, true
	}
	if u, err := toUnstructured(c.scheme, ev.Object); err == nil && u != nil {
		ev.Object = u
	}
	return ev, true
}

// Tracker returns the tracker holding the client's objects.
func (c *FakeDynamicClient) Tracker() testing.ObjectTracker {
	return c.tracker
}

// Resource returns a client for resource, at cluster scope until narrowed
// with Namespace.
func (c *FakeDynamicClient) Resource(resource schema.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	return &resourceClient{client: c, resource: resource, listKind: c.listKinds[resource]}
}

// IsWatchListSemanticsUnSupported reports true: the fake does not serve
// watch-list streams (sendInitialEvents), so informers fall back to a list
// followed by a watch.
func (c *FakeDynamicClient) IsWatchListSemanticsUnSupported() bool {
	return true
}

// toUnstructured returns obj as an *unstructured.Unstructured. An
// unstructured answer of a reactor (an Unstructured, or an UnstructuredList
// a test returned for a single object) is taken as its content, kind or no
// kind, as client-go's fake does; a typed object is converted, with its
// apiVersion and kind filled in from scheme when it does not carry them. A
// nil pointer gives nil.
func toUnstructured(scheme *runtime.Scheme, obj runtime.Object) (*unstructured.Unstructured, error) {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		return o, nil
	case *unstructured.UnstructuredList:
		if o == nil {
			return nil, nil
		}
		return &unstructured.Unstructured{Object: o.UnstructuredContent()}, nil
	case runtime.Unstructured:
		if reflect.ValueOf(o).IsNil() {
			return nil, nil
		}
		return &unstructured.Unstructured{Object: o.UnstructuredContent()}, nil
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, nil
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("converting %T to unstructured: %w", obj, err)
	}
	u := &unstructured.Unstructured{Object: content}
	if gvk := u.GroupVersionKind(); gvk.Kind == "" || gvk.Version == "" {
		kinds, _, err := scheme.ObjectKinds(obj)
		if err != nil {
			return nil, err
		}
		u.SetGroupVersionKind(kinds[0])
	}
	return u, nil
}
