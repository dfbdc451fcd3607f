package gentype

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/util/apply"
)

// Client is a typed client for one resource, namespaced or cluster scoped,
// offering the verbs every resource has. It does not list or apply; see
// ClientWithList, ClientWithApply and ClientWithListAndApply for those.
type Client[T objectWithMeta] struct {
	resource       string
	client         rest.Interface
	namespace      string // empty for cluster-scoped resources
	newObject      func() T
	parameterCodec runtime.ParameterCodec

	// prefersProtobuf asks for protobuf on requests whose content type the
	// caller left unset.
	prefersProtobuf bool
}

// ClientWithList is a Client that can also list and delete collections.
type ClientWithList[T objectWithMeta, L runtime.Object] struct {
	*Client[T]
	alsoLister[T, L]
}

// ClientWithApply is a Client that can also server-side apply configurations.
type ClientWithApply[T objectWithMeta, C namedObject] struct {
	*Client[T]
	alsoApplier[T, C]
}

// ClientWithListAndApply is a Client that can list, delete collections and
// server-side apply configurations.
type ClientWithListAndApply[T objectWithMeta, L runtime.Object, C namedObject] struct {
	*Client[T]
	alsoLister[T, L]
	alsoApplier[T, C]
}

// alsoLister adds List and DeleteCollection to a Client.
type alsoLister[T objectWithMeta, L runtime.Object] struct {
	client  *Client[T]
	newList func() L
}

// alsoApplier adds Apply and ApplyStatus to a Client.
type alsoApplier[T objectWithMeta, C namedObject] struct {
	client *Client[T]
}

// Option configures a Client when it is built.
type Option[T objectWithMeta] func(*Client[T])

// PrefersProtobuf makes the client request protobuf, with JSON as a fallback,
// whenever the rest client's content type was not set explicitly. Generated
// clients for built-in types use it.
func PrefersProtobuf[T objectWithMeta]() Option[T] {
	return func(c *Client[T]) { c.prefersProtobuf = true }
}

// NewClient returns a Client for resource. Pass an empty namespace for a
// cluster-scoped resource.
func NewClient[T objectWithMeta](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string, emptyObjectCreator func() T,
	options ...Option[T],
) *Client[T] {
	c := &Client[T]{
		resource:       resource,
		client:         client,
		parameterCodec: parameterCodec,
		namespace:      namespace,
		newObject:      emptyObjectCreator,
	}
	for _, opt := range options {
		opt(c)
	}
	return c
}

// NewClientWithList returns a ClientWithList for resource.
func NewClientWithList[T objectWithMeta, L runtime.Object](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string, emptyObjectCreator func() T,
	emptyListCreator func() L, options ...Option[T],
) *ClientWithList[T, L] {
	base := NewClient[T](resource, client, parameterCodec, namespace, emptyObjectCreator, options...)
	return &ClientWithList[T, L]{
		Client:     base,
		alsoLister: alsoLister[T, L]{client: base, newList: emptyListCreator},
	}
}

// NewClientWithApply returns a ClientWithApply for resource.
func NewClientWithApply[T objectWithMeta, C namedObject](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string, emptyObjectCreator func() T,
	options ...Option[T],
) *ClientWithApply[T, C] {
	base := NewClient[T](resource, client, parameterCodec, namespace, emptyObjectCreator, options...)
	return &ClientWithApply[T, C]{
		Client:      base,
		alsoApplier: alsoApplier[T, C]{client: base},
	}
}

// NewClientWithListAndApply returns a ClientWithListAndApply for resource.
func NewClientWithListAndApply[T objectWithMeta, L runtime.Object, C namedObject](
	resource string, client rest.Interface, parameterCodec runtime.ParameterCodec, namespace string, emptyObjectCreator func() T,
	emptyListCreator func() L, options ...Option[T],
) *ClientWithListAndApply[T, L, C] {
	base := NewClient[T](resource, client, parameterCodec, namespace, emptyObjectCreator, options...)
	return &ClientWithListAndApply[T, L, C]{
		Client:      base,
		alsoLister:  alsoLister[T, L]{client: base, newList: emptyListCreator},
		alsoApplier: alsoApplier[T, C]{client: base},
	}
}

// GetClient returns the rest.Interface requests are sent through.
func (c *Client[T]) GetClient() rest.Interface {
	return c.client
}

// GetNamespace returns the namespace the client is bound to, empty for
// cluster-scoped resources.
func (c *Client[T]) GetNamespace() string {
	return c.namespace
}

// request starts a request on the client's resource in its namespace with
// the content type preference applied.
func (c *Client[T]) request(r *rest.Request) *rest.Request {
	return r.UseProtobufAsDefaultIfPreferred(c.prefersProtobuf).
		NamespaceIfScoped(c.namespace, c.namespace != "").
		Resource(c.resource)
}

// Get returns the object called name.
func (c *Client[T]) Get(ctx context.Context, name string, options metav1.GetOptions) (T, error) {
	out := c.newObject()
	err := c.request(c.client.Get()).
		Name(name).
		VersionedParams(&options, c.parameterCodec).
		Do(ctx).
		Into(out)
	return out, err
}

// Watch starts a watch on the resource with the given list options.
func (c *Client[T]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.request(c.client.Get()).
		VersionedParams(&opts, c.parameterCodec).
		Timeout(timeoutOf(opts)).
		Watch(ctx)
}

// Create sends obj to the server and returns the object the server stored.
func (c *Client[T]) Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error) {
	out := c.newObject()
	err := c.request(c.client.Post()).
		VersionedParams(&opts, c.parameterCodec).
		Body(obj).
		Do(ctx).
		Into(out)
	return out, err
}

// Update replaces the stored object with obj and returns the object the
// server stored.
func (c *Client[T]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	out := c.newObject()
	err := c.request(c.client.Put()).
		Name(obj.GetName()).
		VersionedParams(&opts, c.parameterCodec).
		Body(obj).
		Do(ctx).
		Into(out)
	return out, err
}

// UpdateStatus replaces the status subresource of the stored object with the
// status of obj and returns the object the server stored.
func (c *Client[T]) UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	out := c.newObject()
	err := c.request(c.client.Put()).
		Name(obj.GetName()).
		SubResource("status").
		VersionedParams(&opts, c.parameterCodec).
		Body(obj).
		Do(ctx).
		Into(out)
	return out, err
}

// Delete removes the object called name.
func (c *Client[T]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	return c.request(c.client.Delete()).
		Name(name).
		Body(&opts).
		Do(ctx).
		Error()
}

// Patch applies a patch of type pt to the object called name, or to one of
// its subresources, and returns the patched object.
func (c *Client[T]) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error) {
	out := c.newObject()
	err := c.request(c.client.Patch(pt)).
		Name(name).
		SubResource(subresources...).
		VersionedParams(&opts, c.parameterCodec).
		Body(data).
		Do(ctx).
		Into(out)
	return out, err
}

// List returns the objects matching opts.
func (l *alsoLister[T, L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	out := l.newList()
	c := l.client
	err := c.request(c.client.Get()).
		VersionedParams(&opts, c.parameterCodec).
		Timeout(timeoutOf(opts)).
		Do(ctx).
		Into(out)
	return out, err
}

// DeleteCollection removes every object matching listOpts.
func (l *alsoLister[T, L]) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	c := l.client
	return c.request(c.client.Delete()).
		VersionedParams(&listOpts, c.parameterCodec).
		Timeout(timeoutOf(listOpts)).
		Body(&opts).
		Do(ctx).
		Error()
}

// Apply server-side applies obj and returns the resulting object.
func (a *alsoApplier[T, C]) Apply(ctx context.Context, obj C, opts metav1.ApplyOptions) (T, error) {
	return a.apply(ctx, obj, opts, "apply", "")
}

// ApplyStatus server-side applies obj to the status subresource and returns
// the resulting object.
func (a *alsoApplier[T, C]) ApplyStatus(ctx context.Context, obj C, opts metav1.ApplyOptions) (T, error) {
	return a.apply(ctx, obj, opts, "applyStatus", "status")
}

func (a *alsoApplier[T, C]) apply(ctx context.Context, obj C, opts metav1.ApplyOptions, verb, subresource string) (T, error) {
	out := a.client.newObject()
	var zero C
	if obj == zero {
		return out, fmt.Errorf("the apply configuration passed to %s must not be nil", verb)
	}
	name := obj.GetName()
	if name == nil {
		return out, fmt.Errorf("the apply configuration passed to %s must have metadata.name set", verb)
	}
	patchOpts := opts.ToPatchOptions()
	req, err := apply.NewRequest(a.client.client, obj)
	if err != nil {
		return out, err
	}
	c := a.client
	req = c.request(req).Name(*name)
	if subresource != "" {
		req = req.SubResource(subresource)
	}
	err = req.VersionedParams(&patchOpts, c.parameterCodec).
		Do(ctx).
		Into(out)
	return out, err
}

// timeoutOf converts the server-side timeout of a list or watch into a
// client-side request timeout; zero means none.
func timeoutOf(opts metav1.ListOptions) time.Duration {
	if opts.TimeoutSeconds == nil {
		return 0
	}
	return time.Duration(*opts.TimeoutSeconds) * time.Second
}
