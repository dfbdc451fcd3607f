package gentype

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/testing"
)

// FakeClient is the in-memory counterpart of Client: every call is recorded
// as an action on the embedded testing.Fake, whose reactors produce the
// result.
type FakeClient[T objectWithMeta] struct {
	*testing.Fake
	ns        string // empty for cluster-scoped resources
	resource  schema.GroupVersionResource
	kind      schema.GroupVersionKind
	newObject func() T
}

// NewFakeClient returns a FakeClient for resource. Pass an empty namespace
// for a cluster-scoped resource.
func NewFakeClient[T objectWithMeta](
	fake *testing.Fake, namespace string, resource schema.GroupVersionResource, kind schema.GroupVersionKind, emptyObjectCreator func() T,
) *FakeClient[T] {
	c := &FakeClient[T]{Fake: fake, newObject: emptyObjectCreator}
	c.ns, c.resource, c.kind = namespace, resource, kind
	return c
}

// FakeClientWithList is a FakeClient that can also list and delete collections.
type FakeClientWithList[T objectWithMeta, L runtime.Object] struct {
	*FakeClient[T]
	fakeListVerbs[T, L]
}

// NewFakeClientWithList returns a FakeClientWithList for resource.
func NewFakeClientWithList[T objectWithMeta, L runtime.Object](
	fake *testing.Fake, namespace string, resource schema.GroupVersionResource, kind schema.GroupVersionKind, emptyObjectCreator func() T,
	emptyListCreator func() L, listMetaCopier func(L, L), itemGetter func(L) []T, itemSetter func(L, []T),
) *FakeClientWithList[T, L] {
	c := NewFakeClient[T](fake, namespace, resource, kind, emptyObjectCreator)
	items := listItems[T, L]{emptyListCreator, listMetaCopier, itemGetter, itemSetter}
	return &FakeClientWithList[T, L]{c, fakeListVerbs[T, L]{c, items}}
}

// FakeClientWithApply is a FakeClient that can also apply configurations.
type FakeClientWithApply[T objectWithMeta, C namedObject] struct {
	*FakeClient[T]
	fakeApplyVerbs[T, C]
}

// NewFakeClientWithApply returns a FakeClientWithApply for resource.
func NewFakeClientWithApply[T objectWithMeta, C namedObject](
	fake *testing.Fake, namespace string, resource schema.GroupVersionResource, kind schema.GroupVersionKind, emptyObjectCreator func() T,
) *FakeClientWithApply[T, C] {
	c := NewFakeClient[T](fake, namespace, resource, kind, emptyObjectCreator)
	return &FakeClientWithApply[T, C]{c, fakeApplyVerbs[T, C]{c}}
}

// FakeClientWithListAndApply is a FakeClient that can list, delete
// collections and apply configurations.
type FakeClientWithListAndApply[T objectWithMeta, L runtime.Object, C namedObject] struct {
	*FakeClient[T]
	fakeListVerbs[T, L]
	fakeApplyVerbs[T, C]
}

// NewFakeClientWithListAndApply returns a FakeClientWithListAndApply for resource.
func NewFakeClientWithListAndApply[T objectWithMeta, L runtime.Object, C namedObject](
	fake *testing.Fake, namespace string, resource schema.GroupVersionResource, kind schema.GroupVersionKind, emptyObjectCreator func() T,
	emptyListCreator func() L, listMetaCopier func(L, L), itemGetter func(L) []T, itemSetter func(L, []T),
) *FakeClientWithListAndApply[T, L, C] {
	c := NewFakeClient[T](fake, namespace, resource, kind, emptyObjectCreator)
	items := listItems[T, L]{emptyListCreator, listMetaCopier, itemGetter, itemSetter}
	return &FakeClientWithListAndApply[T, L, C]{c, fakeListVerbs[T, L]{c, items}, fakeApplyVerbs[T, C]{c}}
}

// Kind returns the kind the client serves.
func (c *FakeClient[T]) Kind() schema.GroupVersionKind { return c.kind }

// Namespace returns the namespace the client is bound to.
func (c *FakeClient[T]) Namespace() string { return c.ns }

// Resource returns the resource the client serves.
func (c *FakeClient[T]) Resource() schema.GroupVersionResource { return c.resource }

// invoke runs action through the reactors and converts the result to T.
func (c *FakeClient[T]) invoke(action testing.Action) (T, error) {
	var zero T
	obj, err := c.Fake.Invokes(action, c.newObject())
	if obj == nil {
		return zero, err
	}
	typed, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("reactor returned %T, want %T", obj, zero)
	}
	return typed, err
}

// Get records a get action and returns the reactors' answer.
func (c *FakeClient[T]) Get(ctx context.Context, name string, options metav1.GetOptions) (T, error) {
	if c.ns == "" {
		return c.invoke(testing.NewRootGetActionWithOptions(c.resource, name, options))
	}
	return c.invoke(testing.NewGetActionWithOptions(c.resource, c.ns, name, options))
}

// Watch records a watch action and returns the reactors' watch.
func (c *FakeClient[T]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	if c.ns == "" {
		return c.Fake.InvokesWatch(testing.NewRootWatchActionWithOptions(c.resource, opts))
	}
	return c.Fake.InvokesWatch(testing.NewWatchActionWithOptions(c.resource, c.ns, opts))
}

// Create records a create action and returns the reactors' answer.
func (c *FakeClient[T]) Create(ctx context.Context, resource T, opts metav1.CreateOptions) (result T, err error) {
	if c.ns == "" {
		return c.invoke(testing.NewRootCreateActionWithOptions(c.resource, resource, opts))
	}
	return c.invoke(testing.NewCreateActionWithOptions(c.resource, c.ns, resource, opts))
}

// Update records an update action and returns the reactors' answer.
func (c *FakeClient[T]) Update(ctx context.Context, resource T, opts metav1.UpdateOptions) (result T, err error) {
	if c.ns == "" {
		return c.invoke(testing.NewRootUpdateActionWithOptions(c.resource, resource, opts))
	}
	return c.invoke(testing.NewUpdateActionWithOptions(c.resource, c.ns, resource, opts))
}

// UpdateStatus records an update of the status subresource.
func (c *FakeClient[T]) UpdateStatus(ctx context.Context, resource T, opts metav1.UpdateOptions) (result T, err error) {
	if c.ns == "" {
		return c.invoke(testing.NewRootUpdateSubresourceActionWithOptions(c.resource, "status", resource, opts))
	}
	return c.invoke(testing.NewUpdateSubresourceActionWithOptions(c.resource, "status", c.ns, resource, opts))
}

// Delete records a delete action.
func (c *FakeClient[T]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	var err error
	if c.ns == "" {
		_, err = c.Fake.Invokes(testing.NewRootDeleteActionWithOptions(c.resource, name, opts), c.newObject())
	} else {
		_, err = c.Fake.Invokes(testing.NewDeleteActionWithOptions(c.resource, c.ns, name, opts), c.newObject())
	}
	return err
}

// Patch records a patch action and returns the reactors' answer.
func (c *FakeClient[T]) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (result T, err error) {
	if c.ns == "" {
		return c.invoke(testing.NewRootPatchSubresourceActionWithOptions(c.resource, name, pt, data, opts, subresources...))
	}
	return c.invoke(testing.NewPatchSubresourceActionWithOptions(c.resource, c.ns, name, pt, data, opts, subresources...))
}

// listItems is how the fake lister reaches into a list type L of items T:
// create one, copy its list metadata, read and replace its items.
type listItems[T objectWithMeta, L runtime.Object] struct {
	newList      func() L
	copyListMeta func(L, L)
	getItems     func(L) []T
	setItems     func(L, []T)
}

// fakeListVerbs adds List and DeleteCollection to a FakeClient.
type fakeListVerbs[T objectWithMeta, L runtime.Object] struct {
	client *FakeClient[T]
	listItems[T, L]
}

// List records a list action and returns the reactors' items that match the
// label selector of opts.
func (l *fakeListVerbs[T, L]) List(ctx context.Context, opts metav1.ListOptions) (result L, err error) {
	c := l.client
	var action testing.Action
	if c.ns == "" {
		action = testing.NewRootListActionWithOptions(c.resource, c.kind, opts)
	} else {
		action = testing.NewListActionWithOptions(c.resource, c.kind, c.ns, opts)
	}
	obj, err := c.Fake.Invokes(action, l.newList())
	if obj == nil {
		var zero L
		return zero, err
	}
	got, ok := obj.(L)
	if !ok {
		var zero L
		return zero, fmt.Errorf("reactor returned %T, want %T", obj, zero)
	}
	if err != nil || l.getItems == nil || l.setItems == nil {
		return got, err
	}
	selector, _, _ := testing.ExtractFromListOptions(opts)
	if selector == nil {
		selector = labels.Everything()
	}
	filtered := l.newList()
	if l.copyListMeta != nil {
		l.copyListMeta(filtered, got)
	}
	var kept []T
	for _, item := range l.getItems(got) {
		if selector.Matches(labels.Set(item.GetLabels())) {
			kept = append(kept, item)
		}
	}
	l.setItems(filtered, kept)
	return filtered, nil
}

// DeleteCollection records a delete-collection action.
func (l *fakeListVerbs[T, L]) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	c := l.client
	var err error
	if c.ns == "" {
		_, err = c.Fake.Invokes(testing.NewRootDeleteCollectionActionWithOptions(c.resource, opts, listOpts), l.newList())
	} else {
		_, err = c.Fake.Invokes(testing.NewDeleteCollectionActionWithOptions(c.resource, c.ns, opts, listOpts), l.newList())
	}
	return err
}

// fakeApplyVerbs adds Apply and ApplyStatus to a FakeClient.
type fakeApplyVerbs[T objectWithMeta, C namedObject] struct {
	client *FakeClient[T]
}

// Apply records an apply patch of configuration.
func (a *fakeApplyVerbs[T, C]) Apply(ctx context.Context, configuration C, opts metav1.ApplyOptions) (result T, err error) {
	return a.apply(configuration, opts, "Apply")
}

// ApplyStatus records an apply patch of configuration on the status subresource.
func (a *fakeApplyVerbs[T, C]) ApplyStatus(ctx context.Context, configuration C, opts metav1.ApplyOptions) (result T, err error) {
	return a.apply(configuration, opts, "ApplyStatus", "status")
}

func (a *fakeApplyVerbs[T, C]) apply(configuration C, opts metav1.ApplyOptions, verb string, subresources ...string) (T, error) {
	var zero C
	var none T
	if configuration == zero {
		return none, fmt.Errorf("the configuration passed to %s must not be nil", verb)
	}
	name := configuration.GetName()
	if name == nil {
		return none, fmt.Errorf("the configuration passed to %s must have metadata.name set", verb)
	}
	data, err := json.Marshal(configuration)
	if err != nil {
		return none, err
	}
	c := a.client
	patchOpts := opts.ToPatchOptions()
	if c.ns == "" {
		return c.invoke(testing.NewRootPatchSubresourceActionWithOptions(c.resource, *name, types.ApplyPatchType, data, patchOpts, subresources...))
	}
	return c.invoke(testing.NewPatchSubresourceActionWithOptions(c.resource, c.ns, *name, types.ApplyPatchType, data, patchOpts, subresources...))
}
