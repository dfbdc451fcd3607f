package fake

import (
	"context"
	"errors"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/testing"
)

// resourceClient is the dynamic.ResourceInterface of FakeDynamicClient for
// one resource in one scope. Every verb becomes a testing.Action that the
// client's reactor chains answer.
type resourceClient struct {
	client    *FakeDynamicClient
	resource  schema.GroupVersionResource
	namespace string
	listKind  string
}

var errObjectRequired = errors.New("object is required")

func (c *resourceClient) Namespace(ns string) dynamic.ResourceInterface {
	scoped := *c
	scoped.namespace = ns
	return &scoped
}

// invoke runs action through the reaction chain and converts its answer to
// unstructured. fallback is what the chain returns when no reactor handles
// the action.
func (c *resourceClient) invoke(action testing.Action, fallback runtime.Object) (*unstructured.Unstructured, error) {
	obj, err := c.client.Invokes(action, fallback)
	if err != nil || obj == nil {
		return nil, err
	}
	return toUnstructured(c.client.scheme, obj)
}

func (c *resourceClient) Create(ctx context.Context, obj *unstructured.Unstructured, opts metav1.CreateOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if obj == nil {
		return nil, errObjectRequired
	}
	if len(subresources) == 0 {
		return c.invoke(testing.NewCreateActionWithOptions(c.resource, c.namespace, obj, opts), obj)
	}
	action := testing.NewCreateSubresourceActionWithOptions(c.resource, obj.GetName(), strings.Join(subresources, "/"), c.namespace, obj, opts)
	return c.invoke(action, obj)
}

func (c *resourceClient) Update(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if obj == nil {
		return nil, errObjectRequired
	}
	action := testing.NewUpdateSubresourceActionWithOptions(c.resource, strings.Join(subresources, "/"), c.namespace, obj, opts)
	return c.invoke(action, obj)
}

func (c *resourceClient) UpdateStatus(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions) (*unstructured.Unstructured, error) {
	return c.Update(ctx, obj, opts, "status")
}

func (c *resourceClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	action := testing.NewDeleteSubresourceActionWithOptions(c.resource, strings.Join(subresources, "/"), c.namespace, name, opts)
	_, err := c.client.Invokes(action, &metav1.Status{Status: "dynamic delete fail"})
	return err
}

func (c *resourceClient) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOptions metav1.ListOptions) error {
	action := testing.NewDeleteCollectionActionWithOptions(c.resource, c.namespace, opts, listOptions)
	_, err := c.client.Invokes(action, &metav1.Status{Status: "dynamic deletecollection fail"})
	return err
}

func (c *resourceClient) Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*unstructured.Unstructured, error) {
	action := testing.NewGetSubresourceActionWithOptions(c.resource, c.namespace, strings.Join(subresources, "/"), name, opts)
	return c.invoke(action, &metav1.Status{Status: "dynamic get fail"})
}

// List answers with an UnstructuredList of the resource's list kind. The
// items are filtered by the label selector of opts once more, so reactors
// that return a whole list still honour it.
func (c *resourceClient) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	if c.listKind == "" {
		return nil, fmt.Errorf("dynamic fake: no list kind is known for %s: register the list type in the scheme or "+
			"name it with NewSimpleDynamicClientWithCustomListKinds (known: %v)", c.resource, c.client.listKinds)
	}
	listGVK := c.resource.GroupVersion().WithKind(c.listKind)
	itemGVK := c.resource.GroupVersion().WithKind(strings.TrimSuffix(c.listKind, "List"))
	action := testing.NewListActionWithOptions(c.resource, itemGVK, c.namespace, opts)
	obj, err := c.client.Invokes(action, &metav1.Status{Status: "dynamic list fail"})
	if err != nil || obj == nil {
		return nil, err
	}

	all, err := toUnstructuredList(c.client.scheme, obj)
	if err != nil {
		return nil, err
	}
	selector, _, _ := testing.ExtractFromListOptions(opts)
	if selector == nil {
		selector = labels.Everything()
	}
	out := &unstructured.UnstructuredList{Object: map[string]interface{}{}}
	out.SetGroupVersionKind(listGVK)
	out.SetResourceVersion(all.GetResourceVersion())
	out.SetContinue(all.GetContinue())
	out.SetRemainingItemCount(all.GetRemainingItemCount())
	for _, item := range all.Items {
		if item.GetKind() == "" {
			// Items of a typed list carry no kind, as on the wire.
			item.SetGroupVersionKind(itemGVK)
		}
		if selector.Matches(labels.Set(item.GetLabels())) {
			out.Items = append(out.Items, item)
		}
	}
	return out, nil
}

func (c *resourceClient) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return c.client.InvokesWatch(testing.NewWatchActionWithOptions(c.resource, c.namespace, opts))
}

func (c *resourceClient) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*unstructured.Unstructured, error) {
	action := testing.NewPatchSubresourceActionWithOptions(c.resource, c.namespace, name, pt, data, opts, subresources...)
	return c.invoke(action, &metav1.Status{Status: "dynamic patch fail"})
}

// Apply sends obj as an apply patch; the tracker merges it into the stored
// object (or creates it), with field ownership when the tracker manages
// fields.
func (c *resourceClient) Apply(ctx context.Context, name string, obj *unstructured.Unstructured, options metav1.ApplyOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if obj == nil {
		return nil, errObjectRequired
	}
	data, err := runtime.Encode(unstructured.UnstructuredJSONScheme, obj)
	if err != nil {
		return nil, err
	}
	opts := options.ToPatchOptions()
	return c.Patch(ctx, name, types.ApplyPatchType, data, opts, subresources...)
}

func (c *resourceClient) ApplyStatus(ctx context.Context, name string, obj *unstructured.Unstructured, options metav1.ApplyOptions) (*unstructured.Unstructured, error) {
	return c.Apply(ctx, name, obj, options, "status")
}

// toUnstructuredList returns the list obj as an UnstructuredList, converting
// a typed list and its items.
func toUnstructuredList(scheme *runtime.Scheme, obj runtime.Object) (*unstructured.UnstructuredList, error) {
	if list, ok := obj.(*unstructured.UnstructuredList); ok && list != nil {
		return list, nil
	}
	u, err := toUnstructured(scheme, obj)
	if err != nil {
		return nil, err
	}
	if u == nil {
		return &unstructured.UnstructuredList{}, nil
	}
	list, err := u.ToList()
	if err != nil {
		return nil, fmt.Errorf("dynamic fake: list answer %T is not a list: %w", obj, err)
	}
	return list, nil
}
