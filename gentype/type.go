package gentype

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/decodeonce"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/util/apply"
)

// This file is the one helper where client-go's generated clients repeat
// themselves: every typed client is a Client (or one of its list/apply
// variants) instantiated for one resource. The design in three parts:
//
//   - endpoint says where a request goes (resource, namespace, rest client)
//     and how its options and body are encoded. Every verb starts from
//     endpoint.start, so scoping and content negotiation live in one place.
//   - Client[T] adds the object type: fetch decodes an answer into a new T.
//   - the list and apply verbs live in small mix-ins (listVerbs, applyVerbs)
//     that the exported variants embed, so each verb is written once.

// endpoint is where a Client's requests go and how they are encoded.
type endpoint struct {
	rest      rest.Interface
	resource  string
	namespace string // empty for cluster-scoped resources
	codec     runtime.ParameterCodec
	// protobuf asks for protobuf on requests whose content type the caller
	// left unset.
	protobuf bool
}

// start turns the verb request r into a request on the endpoint's resource,
// in its namespace, with the content type preference applied.
func (e *endpoint) start(r *rest.Request) *rest.Request {
	return r.UseProtobufAsDefaultIfPreferred(e.protobuf).
		NamespaceIfScoped(e.namespace, e.namespace != "").
		Resource(e.resource)
}

// Client is a typed client for one resource, namespaced or cluster scoped,
// offering the verbs every resource has. It does not list or apply; see
// ClientWithList, ClientWithApply and ClientWithListAndApply for those.
type Client[T objectWithMeta] struct {
	at        endpoint
	newObject func() T
}

// Option configures a Client when it is built.
type Option[T objectWithMeta] func(*Client[T])

// PrefersProtobuf makes the client request protobuf, with JSON as a fallback,
// whenever the rest client's content type was not set explicitly. Generated
// clients for built-in types use it.
func PrefersProtobuf[T objectWithMeta]() Option[T] {
	return func(c *Client[T]) { c.at.protobuf = true }
}

// NewClient returns a Client for resource. Pass an empty namespace for a
// cluster-scoped resource.
func NewClient[T objectWithMeta](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string, emptyObjectCreator func() T,
	options ...Option[T],
) *Client[T] {
	c := &Client[T]{newObject: emptyObjectCreator}
	c.at = endpoint{rest: client, resource: resource, namespace: namespace, codec: parameterCodec}
	for _, configure := range options {
		configure(c)
	}
	return c
}

// ClientWithList is a Client that can also list and delete collections.
type ClientWithList[T objectWithMeta, L runtime.Object] struct {
	*Client[T]
	listVerbs[T, L]
}

// NewClientWithList returns a ClientWithList for resource.
func NewClientWithList[T objectWithMeta, L runtime.Object](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string, emptyObjectCreator func() T,
	emptyListCreator func() L, options ...Option[T],
) *ClientWithList[T, L] {
	c := NewClient[T](resource, client, parameterCodec, namespace, emptyObjectCreator, options...)
	return &ClientWithList[T, L]{c, listVerbs[T, L]{c, emptyListCreator}}
}

// ClientWithApply is a Client that can also server-side apply configurations.
type ClientWithApply[T objectWithMeta, C namedObject] struct {
	*Client[T]
	applyVerbs[T, C]
}

// NewClientWithApply returns a ClientWithApply for resource.
func NewClientWithApply[T objectWithMeta, C namedObject](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string, emptyObjectCreator func() T,
	options ...Option[T],
) *ClientWithApply[T, C] {
	c := NewClient[T](resource, client, parameterCodec, namespace, emptyObjectCreator, options...)
	return &ClientWithApply[T, C]{c, applyVerbs[T, C]{c}}
}

// ClientWithListAndApply is a Client that can list, delete collections and
// server-side apply configurations.
type ClientWithListAndApply[T objectWithMeta, L runtime.Object, C namedObject] struct {
	*Client[T]
	listVerbs[T, L]
	applyVerbs[T, C]
}

// NewClientWithListAndApply returns a ClientWithListAndApply for resource.
func NewClientWithListAndApply[T objectWithMeta, L runtime.Object, C namedObject](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string, emptyObjectCreator func() T,
	emptyListCreator func() L, options ...Option[T],
) *ClientWithListAndApply[T, L, C] {
	c := NewClient[T](resource, client, parameterCodec, namespace, emptyObjectCreator, options...)
	return &ClientWithListAndApply[T, L, C]{c, listVerbs[T, L]{c, emptyListCreator}, applyVerbs[T, C]{c}}
}

// GetClient returns the rest.Interface requests are sent through.
func (c *Client[T]) GetClient() rest.Interface {
	return c.at.rest
}

// GetNamespace returns the namespace the client is bound to, empty for
// cluster-scoped resources.
func (c *Client[T]) GetNamespace() string {
	return c.at.namespace
}

// fetch sends r and decodes the answer into a new T.
func (c *Client[T]) fetch(ctx context.Context, r *rest.Request) (T, error) {
	out := c.newObject()
	err := r.Do(ctx).Into(out)
	return out, err
}

// Get returns the object called name.
func (c *Client[T]) Get(ctx context.Context, name string, options metav1.GetOptions) (T, error) {
	r := c.at.start(c.at.rest.Get()).Name(name)
	return c.fetch(ctx, r.VersionedParams(&options, c.at.codec))
}

// Watch starts a watch on the resource with the given list options.
func (c *Client[T]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	r := c.at.start(c.at.rest.Get()).VersionedParams(&opts, c.at.codec)
	return r.Timeout(timeoutOf(opts)).Watch(ctx)
}

// Create sends obj to the server and returns the object the server stored.
func (c *Client[T]) Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error) {
	r := c.at.start(c.at.rest.Post()).VersionedParams(&opts, c.at.codec)
	return c.fetch(ctx, r.Body(obj))
}

// Update replaces the stored object with obj and returns the object the
// server stored.
func (c *Client[T]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	return c.put(ctx, obj, opts)
}

// UpdateStatus replaces the status subresource of the stored object with the
// status of obj and returns the object the server stored.
func (c *Client[T]) UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	return c.put(ctx, obj, opts, "status")
}

// put is Update, or with a subresource UpdateStatus.
func (c *Client[T]) put(ctx context.Context, obj T, opts metav1.UpdateOptions, subresource ...string) (T, error) {
	r := c.at.start(c.at.rest.Put()).Name(obj.GetName()).SubResource(subresource...)
	return c.fetch(ctx, r.VersionedParams(&opts, c.at.codec).Body(obj))
}

// Delete removes the object called name.
func (c *Client[T]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	r := c.at.start(c.at.rest.Delete()).Name(name)
	return r.Body(&opts).Do(ctx).Error()
}

// Patch applies a patch of type pt to the object called name, or to one of
// its subresources, and returns the patched object.
func (c *Client[T]) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error) {
	r := c.at.start(c.at.rest.Patch(pt)).Name(name).SubResource(subresources...)
	return c.fetch(ctx, r.VersionedParams(&opts, c.at.codec).Body(data))
}

// listVerbs adds List and DeleteCollection to a Client.
type listVerbs[T objectWithMeta, L runtime.Object] struct {
	client  *Client[T]
	newList func() L
}

// List returns the objects matching opts.
func (l *listVerbs[T, L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	at := &l.client.at
	out := l.newList()
	r := at.start(at.rest.Get()).VersionedParams(&opts, at.codec).Timeout(timeoutOf(opts))
	// The result goes nowhere but into out: its body may be read into a
	// buffer the REST client reuses once decoded.
	err := r.Do(decodeonce.Mark(ctx, r)).Into(out)
	return out, err
}

// DeleteCollection removes every object matching listOpts.
func (l *listVerbs[T, L]) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	at := &l.client.at
	r := at.start(at.rest.Delete()).VersionedParams(&listOpts, at.codec).Timeout(timeoutOf(listOpts))
	return r.Body(&opts).Do(ctx).Error()
}

// applyVerbs adds Apply and ApplyStatus to a Client.
type applyVerbs[T objectWithMeta, C namedObject] struct {
	client *Client[T]
}

// Apply server-side applies obj and returns the resulting object.
func (a *applyVerbs[T, C]) Apply(ctx context.Context, obj C, opts metav1.ApplyOptions) (T, error) {
	return a.apply(ctx, obj, opts, "apply")
}

// ApplyStatus server-side applies obj to the status subresource and returns
// the resulting object.
func (a *applyVerbs[T, C]) ApplyStatus(ctx context.Context, obj C, opts metav1.ApplyOptions) (T, error) {
	return a.apply(ctx, obj, opts, "applyStatus", "status")
}

// apply checks that obj names an object, then sends it as an apply patch
// (to the subresource, if one is given).
func (a *applyVerbs[T, C]) apply(ctx context.Context, obj C, opts metav1.ApplyOptions, verb string, subresource ...string) (T, error) {
	c := a.client
	var zero C
	if obj == zero {
		return c.newObject(), fmt.Errorf("the apply configuration passed to %s must not be nil", verb)
	}
	name := obj.GetName()
	if name == nil {
		return c.newObject(), fmt.Errorf("the apply configuration passed to %s must have metadata.name set", verb)
	}
	req, err := apply.NewRequest(c.at.rest, obj)
	if err != nil {
		return c.newObject(), err
	}
	patchOpts := opts.ToPatchOptions()
	r := c.at.start(req).Name(*name).SubResource(subresource...)
	return c.fetch(ctx, r.VersionedParams(&patchOpts, c.at.codec))
}

// timeoutOf converts the server-side timeout of a list or watch into a
// client-side request timeout; zero means none.
func timeoutOf(opts metav1.ListOptions) time.Duration {
	if opts.TimeoutSeconds == nil {
		return 0
	}
	return time.Duration(*opts.TimeoutSeconds) * time.Second
}
