package fake

import (
	"context"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/testing"
)

// resourceClient is the metadata client of FakeMetadataClient for one
// resource in one scope; it implements MetadataClient.
type resourceClient struct {
	client    *FakeMetadataClient
	resource  schema.GroupVersionResource
	namespace string
}

var _ MetadataClient = &resourceClient{}

func (c *resourceClient) Namespace(ns string) metadata.ResourceInterface {
	scoped := *c
	scoped.namespace = ns
	return &scoped
}

// invoke runs action through the reaction chain and returns its answer as
// PartialObjectMetadata.
func (c *resourceClient) invoke(action testing.Action, fallback runtime.Object) (*metav1.PartialObjectMetadata, error) {
	obj, err := c.client.Invokes(action, fallback)
	if err != nil || obj == nil {
		return nil, err
	}
	return asPartial(obj)
}

// CreateFake stores obj through a create action.
func (c *resourceClient) CreateFake(obj *metav1.PartialObjectMetadata, opts metav1.CreateOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	if obj == nil {
		return nil, fmt.Errorf("object is required")
	}
	if len(subresources) == 0 {
		return c.invoke(testing.NewCreateAction(c.resource, c.namespace, obj), obj)
	}
	return c.invoke(testing.NewCreateSubresourceAction(c.resource, obj.Name, strings.Join(subresources, "/"), c.namespace, obj), obj)
}

// UpdateFake replaces the stored object named by obj through an update
// action.
func (c *resourceClient) UpdateFake(obj *metav1.PartialObjectMetadata, opts metav1.UpdateOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	if obj == nil {
		return nil, fmt.Errorf("object is required")
	}
	return c.invoke(testing.NewUpdateSubresourceAction(c.resource, strings.Join(subresources, "/"), c.namespace, obj), obj)
}

func (c *resourceClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	action := testing.NewDeleteSubresourceActionWithOptions(c.resource, strings.Join(subresources, "/"), c.namespace, name, opts)
	_, err := c.client.Invokes(action, &metav1.Status{Status: "metadata delete fail"})
	return err
}

func (c *resourceClient) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOptions metav1.ListOptions) error {
	action := testing.NewDeleteCollectionAction(c.resource, c.namespace, listOptions)
	_, err := c.client.Invokes(action, &metav1.Status{Status: "metadata deletecollection fail"})
	return err
}

func (c *resourceClient) Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	action := testing.NewGetSubresourceAction(c.resource, c.namespace, strings.Join(subresources, "/"), name)
	return c.invoke(action, &metav1.Status{Status: "metadata get fail"})
}

// List answers with the metadata of the listed objects, filtered once more
// by the label selector of opts so that reactors returning whole lists
// still honour it.
func (c *resourceClient) List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	// The tracker appends "List" to the kind, giving listGVK.
	itemGVK := listGVK.GroupVersion().WithKind("")
	obj, err := c.client.Invokes(testing.NewListAction(c.resource, itemGVK, c.namespace, opts), &metav1.Status{Status: "metadata list fail"})
	if err != nil || obj == nil {
		return nil, err
	}
	in, ok := obj.(*metav1.List)
	if !ok {
		return nil, fmt.Errorf("incoming object is incorrect type %T", obj)
	}
	selector, _, _ := testing.ExtractFromListOptions(opts)
	if selector == nil {
		selector = labels.Everything()
	}
	out := &metav1.PartialObjectMetadataList{ListMeta: in.ListMeta}
	for i, raw := range in.Items {
		if raw.Object == nil {
			return nil, fmt.Errorf("item %d in list %T has no decoded object", i, in)
		}
		item, err := asPartial(raw.Object)
		if err != nil {
			return nil, fmt.Errorf("item %d in list %T: %w", i, in, err)
		}
		if selector.Matches(labels.Set(item.Labels)) {
			out.Items = append(out.Items, *item)
		}
	}
	return out, nil
}

func (c *resourceClient) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return c.client.InvokesWatch(testing.NewWatchAction(c.resource, c.namespace, opts))
}

func (c *resourceClient) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	action := testing.NewPatchSubresourceAction(c.resource, c.namespace, name, pt, data, subresources...)
	return c.invoke(action, &metav1.Status{Status: "metadata patch fail"})
}
