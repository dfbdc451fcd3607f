package metadata

import (
	"context"
	"encoding/json"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/resourceclient"
	"github.com/kubeclient/client-go/rest"
)

// coreV1 is the version the options of each verb are encoded as.
var coreV1 = schema.GroupVersion{Version: "v1"}

// optionsCodec turns the options of each verb into query parameters.
var optionsCodec = runtime.NewParameterCodec(func() *runtime.Scheme {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, coreV1)
	return s
}())

// resourceClient is the ResourceInterface of Client for one resource in one
// scope; Namespace returns a copy, so a value is never changed once built.
type resourceClient struct {
	client *rest.RESTClient
	scope  resourceclient.Scope
}

func (c *resourceClient) Namespace(ns string) ResourceInterface {
	scoped := *c
	scoped.scope.Namespace = ns
	return &scoped
}

// deleteOptionsJSON encodes opts as JSON with apiVersion v1. Delete bodies
// are always JSON, whatever the client's content type: the handler of
// custom resources decodes them as unstructured and rejects protobuf.
func deleteOptionsJSON(opts metav1.DeleteOptions) ([]byte, error) {
	opts.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"}
	return json.Marshal(&opts)
}

// Delete deletes the object name (or its subresource).
func (c *resourceClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	segments, err := c.scope.ObjectPath(name, subresources...)
	if err != nil {
		return err
	}
	return sendDelete(ctx, c.client.Delete().AbsPath(segments...), opts)
}

// DeleteCollection deletes the objects of the scope that listOptions
// selects.
func (c *resourceClient) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOptions metav1.ListOptions) error {
	segments, err := c.scope.Path("")
	if err != nil {
		return err
	}
	req := c.client.Delete().AbsPath(segments...).SpecificallyVersionedParams(&listOptions, optionsCodec, coreV1)
	return sendDelete(ctx, req, opts)
}

// sendDelete sends the delete request req with opts as its JSON body.
func sendDelete(ctx context.Context, req *rest.Request, opts metav1.DeleteOptions) error {
	body, err := deleteOptionsJSON(opts)
	if err != nil {
		return err
	}
	return req.SetHeader("Content-Type", runtime.ContentTypeJSON).Body(body).Do(ctx).Error()
}

// Get returns the metadata of the object name (or of its subresource).
func (c *resourceClient) Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	segments, err := c.scope.ObjectPath(name, subresources...)
	if err != nil {
		return nil, err
	}
	result := c.client.Get().
		AbsPath(segments...).
		SetHeader("Accept", acceptObjectMetadata).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Do(ctx)
	return decodePartial(ctx, result, looksLikeObjectMetadata)
}

// List returns the metadata of the objects of the scope.
func (c *resourceClient) List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	segments, err := c.scope.Path("")
	if err != nil {
		return nil, err
	}
	result := c.client.Get().
		AbsPath(segments...).
		SetHeader("Accept", acceptListMetadata).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Do(ctx)
	return decodePartial[metav1.PartialObjectMetadataList](ctx, result, nil)
}

// Watch streams the changes to the objects of the scope; event objects are
// *metav1.PartialObjectMetadata (a *metav1.Status for ERROR events). A
// TimeoutSeconds in opts also bounds the HTTP request.
func (c *resourceClient) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	segments, err := c.scope.Path("")
	if err != nil {
		return nil, err
	}
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
	}
	opts.Watch = true
	return c.client.Get().
		AbsPath(segments...).
		SetHeader("Accept", acceptObjectMetadata).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Timeout(timeout).
		Watch(ctx)
}

// Patch applies data, a patch of type pt, to the object name (or its
// subresource) and returns the metadata of the result.
func (c *resourceClient) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	segments, err := c.scope.ObjectPath(name, subresources...)
	if err != nil {
		return nil, err
	}
	result := c.client.Patch(pt).
		AbsPath(segments...).
		Body(data).
		SetHeader("Accept", acceptObjectMetadata).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Do(ctx)
	return decodePartial(ctx, result, looksLikeObjectMetadata)
}
