package dynamic

import (
	"context"
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/resourceclient"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/util/apply"
)

// errObjectRequired is returned by the verbs that send an object when they
// are given a nil one.
var errObjectRequired = errors.New("object is required")

// errManagedFieldsOnApply rejects an apply configuration that carries
// managedFields: the server owns them, and sending them back would be
// read as a request to take over every field they list.
var errManagedFieldsOnApply = errors.New("cannot apply an object with managed fields already set; " +
	"extract the apply configuration of your field manager (applyconfigurations' unstructured extractor) and apply that instead")

// resourceClient is the ResourceInterface of DynamicClient for one resource
// in one scope. It is a value that Namespace copies, never mutated after
// construction.
type resourceClient struct {
	client rest.Interface
	scope  resourceclient.Scope
}

func (c *resourceClient) Namespace(ns string) ResourceInterface {
	scoped := *c
	scoped.scope.Namespace = ns
	return &scoped
}

// intoObject runs req and decodes its answer into a new Unstructured.
func intoObject(ctx context.Context, req *rest.Request) (*unstructured.Unstructured, error) {
	out := &unstructured.Unstructured{}
	if err := req.Do(ctx).Into(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Create posts obj to the collection. With subresources, the object's name
// is required and the post goes to that object's subresource, as for
// pods/binding or serviceaccounts/token.
func (c *resourceClient) Create(ctx context.Context, obj *unstructured.Unstructured, opts metav1.CreateOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if obj == nil {
		return nil, errObjectRequired
	}
	name := ""
	if len(subresources) > 0 {
		if name = obj.GetName(); name == "" {
			return nil, resourceclient.ErrNameRequired
		}
	}
	segments, err := c.scope.Path(name, subresources...)
	if err != nil {
		return nil, err
	}
	return intoObject(ctx, c.client.Post().
		AbsPath(segments...).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Body(obj))
}

// Update replaces the object named by obj (or its subresource).
func (c *resourceClient) Update(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if obj == nil {
		return nil, errObjectRequired
	}
	segments, err := c.scope.ObjectPath(obj.GetName(), subresources...)
	if err != nil {
		return nil, err
	}
	return intoObject(ctx, c.client.Put().
		AbsPath(segments...).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Body(obj))
}

// UpdateStatus replaces the status subresource of the object named by obj.
func (c *resourceClient) UpdateStatus(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions) (*unstructured.Unstructured, error) {
	return c.Update(ctx, obj, opts, "status")
}

// Delete deletes the object name (or its subresource), sending opts as the
// request body.
func (c *resourceClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	segments, err := c.scope.ObjectPath(name, subresources...)
	if err != nil {
		return err
	}
	return c.client.Delete().
		AbsPath(segments...).
		Body(&opts).
		Do(ctx).
		Error()
}

// DeleteCollection deletes the objects of the collection that listOptions
// selects.
func (c *resourceClient) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOptions metav1.ListOptions) error {
	segments, err := c.scope.Path("")
	if err != nil {
		return err
	}
	return c.client.Delete().
		AbsPath(segments...).
		SpecificallyVersionedParams(&listOptions, optionsCodec, coreV1).
		Body(&opts).
		Do(ctx).
		Error()
}

// Get reads the object name (or its subresource).
func (c *resourceClient) Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*unstructured.Unstructured, error) {
	segments, err := c.scope.ObjectPath(name, subresources...)
	if err != nil {
		return nil, err
	}
	return intoObject(ctx, c.client.Get().
		AbsPath(segments...).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1))
}

// List reads the collection. Items without an apiVersion or kind of their
// own, as servers send them, get those of the list minus its "List" suffix.
func (c *resourceClient) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	segments, err := c.scope.Path("")
	if err != nil {
		return nil, err
	}
	out := &unstructured.UnstructuredList{}
	if err := c.client.Get().
		AbsPath(segments...).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Do(ctx).
		Into(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Watch streams the changes to the collection; the objects of its events
// are *unstructured.Unstructured, except for ERROR events, which carry a
// *metav1.Status.
func (c *resourceClient) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	segments, err := c.scope.Path("")
	if err != nil {
		return nil, err
	}
	opts.Watch = true
	return c.client.Get().
		AbsPath(segments...).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Watch(ctx)
}

// Patch sends data, a patch of type pt, to the object name (or its
// subresource).
func (c *resourceClient) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*unstructured.Unstructured, error) {
	segments, err := c.scope.ObjectPath(name, subresources...)
	if err != nil {
		return nil, err
	}
	return intoObject(ctx, c.client.Patch(pt).
		AbsPath(segments...).
		SpecificallyVersionedParams(&opts, optionsCodec, coreV1).
		Body(data))
}

// Apply sends obj as a server-side apply configuration for the object name
// (or its subresource). opts.FieldManager is required by the server.
func (c *resourceClient) Apply(ctx context.Context, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions, subresources ...string) (*unstructured.Unstructured, error) {
	segments, err := c.scope.ObjectPath(name, subresources...)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, errObjectRequired
	}
	if len(obj.GetManagedFields()) > 0 {
		return nil, errManagedFieldsOnApply
	}
	req, err := apply.NewRequest(c.client, obj.Object)
	if err != nil {
		return nil, err
	}
	patchOpts := opts.ToPatchOptions()
	return intoObject(ctx, req.
		AbsPath(segments...).
		SpecificallyVersionedParams(&patchOpts, optionsCodec, coreV1))
}

// ApplyStatus is Apply on the status subresource.
func (c *resourceClient) ApplyStatus(ctx context.Context, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions) (*unstructured.Unstructured, error) {
	return c.Apply(ctx, name, obj, opts, "status")
}
