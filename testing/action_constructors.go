package testing

import (
	"path"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// The constructors of the actions fake clients record, one per verb and
// scope (namespaced, root, subresource), with and without options.

// ExtractFromListOptions parses the label and field selectors of opts, which
// should be a metav1.ListOptions (a *metav1.ListOptions or nil are accepted
// too), and returns them with the requested resourceVersion. Missing
// selectors select everything; a selector that does not parse selects
// nothing, so a malformed request never silently widens.
func ExtractFromListOptions(opts interface{}) (labelSelector labels.Selector, fieldSelector fields.Selector, resourceVersion string) {
	listOpts, _ := listOptionsOf(opts)
	labelSelector, err := labels.Parse(listOpts.LabelSelector)
	if err != nil {
		labelSelector = labels.Nothing()
	}
	fieldSelector, err = fields.ParseSelector(listOpts.FieldSelector)
	if err != nil {
		fieldSelector = fields.Nothing()
	}
	return labelSelector, fieldSelector, listOpts.ResourceVersion
}

// listOptionsOf converts the loosely typed options accepted by the older
// action constructors; ok is false when opts is of an unexpected type.
func listOptionsOf(opts interface{}) (metav1.ListOptions, bool) {
	switch o := opts.(type) {
	case metav1.ListOptions:
		return o, true
	case *metav1.ListOptions:
		if o == nil {
			return metav1.ListOptions{}, true
		}
		return *o, true
	case nil:
		return metav1.ListOptions{}, true
	default:
		return metav1.ListOptions{}, false
	}
}

func listRestrictionsOf(opts metav1.ListOptions) ListRestrictions {
	l, f, _ := ExtractFromListOptions(opts)
	return ListRestrictions{Labels: l, Fields: f}
}

func baseAction(verb string, resource schema.GroupVersionResource, namespace, subresource string) ActionImpl {
	return ActionImpl{Namespace: namespace, Verb: verb, Resource: resource, Subresource: subresource}
}

// NewRootGetAction returns an action reading the cluster-scoped object name.
func NewRootGetAction(resource schema.GroupVersionResource, name string) GetActionImpl {
	return NewRootGetActionWithOptions(resource, name, metav1.GetOptions{})
}

// NewRootGetActionWithOptions is NewRootGetAction with explicit options.
func NewRootGetActionWithOptions(resource schema.GroupVersionResource, name string, opts metav1.GetOptions) GetActionImpl {
	return GetActionImpl{ActionImpl: baseAction("get", resource, "", ""), Name: name, GetOptions: opts}
}

// NewGetAction returns an action reading the object name in namespace.
func NewGetAction(resource schema.GroupVersionResource, namespace, name string) GetActionImpl {
	return NewGetActionWithOptions(resource, namespace, name, metav1.GetOptions{})
}

// NewGetActionWithOptions is NewGetAction with explicit options.
func NewGetActionWithOptions(resource schema.GroupVersionResource, namespace, name string, opts metav1.GetOptions) GetActionImpl {
	return GetActionImpl{ActionImpl: baseAction("get", resource, namespace, ""), Name: name, GetOptions: opts}
}

// NewGetSubresourceAction returns an action reading a subresource of the
// object name in namespace.
func NewGetSubresourceAction(resource schema.GroupVersionResource, namespace, subresource, name string) GetActionImpl {
	return NewGetSubresourceActionWithOptions(resource, namespace, subresource, name, metav1.GetOptions{})
}

// NewGetSubresourceActionWithOptions is NewGetSubresourceAction with explicit
// options.
func NewGetSubresourceActionWithOptions(resource schema.GroupVersionResource, namespace, subresource, name string, opts metav1.GetOptions) GetActionImpl {
	return GetActionImpl{ActionImpl: baseAction("get", resource, namespace, subresource), Name: name, GetOptions: opts}
}

// NewRootGetSubresourceAction returns an action reading a subresource of the
// cluster-scoped object name.
func NewRootGetSubresourceAction(resource schema.GroupVersionResource, subresource, name string) GetActionImpl {
	return NewRootGetSubresourceActionWithOptions(resource, subresource, name, metav1.GetOptions{})
}

// NewRootGetSubresourceActionWithOptions is NewRootGetSubresourceAction with
// explicit options.
func NewRootGetSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource, name string, opts metav1.GetOptions) GetActionImpl {
	return GetActionImpl{ActionImpl: baseAction("get", resource, "", subresource), Name: name, GetOptions: opts}
}

// NewRootListAction returns an action listing a cluster-scoped resource of
// the given kind; opts should be a metav1.ListOptions. Only its selectors
// are kept, in their normalized form.
func NewRootListAction(resource schema.GroupVersionResource, kind schema.GroupVersionKind, opts interface{}) ListActionImpl {
	return NewListAction(resource, kind, "", opts)
}

// NewRootListActionWithOptions is NewRootListAction with typed options.
func NewRootListActionWithOptions(resource schema.GroupVersionResource, kind schema.GroupVersionKind, opts metav1.ListOptions) ListActionImpl {
	return NewListActionWithOptions(resource, kind, "", opts)
}

// NewListAction returns an action listing resource in namespace (all
// namespaces when empty); opts should be a metav1.ListOptions. Only its
// selectors are kept, in their normalized form; use
// NewListActionWithOptions to keep every option.
func NewListAction(resource schema.GroupVersionResource, kind schema.GroupVersionKind, namespace string, opts interface{}) ListActionImpl {
	raw, _ := listOptionsOf(opts)
	l, f, _ := ExtractFromListOptions(raw)
	kept := metav1.ListOptions{LabelSelector: l.String(), FieldSelector: f.String()}
	// A malformed selector is kept as sent, so the tracker rejects it
	// instead of listing everything.
	if _, err := labels.Parse(raw.LabelSelector); err != nil {
		kept.LabelSelector = raw.LabelSelector
	}
	if _, err := fields.ParseSelector(raw.FieldSelector); err != nil {
		kept.FieldSelector = raw.FieldSelector
	}
	return ListActionImpl{
		ActionImpl:       baseAction("list", resource, namespace, ""),
		Kind:             kind,
		ListRestrictions: ListRestrictions{Labels: l, Fields: f},
		ListOptions:      kept,
	}
}

// NewListActionWithOptions is NewListAction with typed options.
func NewListActionWithOptions(resource schema.GroupVersionResource, kind schema.GroupVersionKind, namespace string, opts metav1.ListOptions) ListActionImpl {
	return ListActionImpl{
		ActionImpl:       baseAction("list", resource, namespace, ""),
		Kind:             kind,
		ListRestrictions: listRestrictionsOf(opts),
		ListOptions:      opts,
	}
}

// NewRootCreateAction returns an action creating a cluster-scoped object.
func NewRootCreateAction(resource schema.GroupVersionResource, object runtime.Object) CreateActionImpl {
	return NewRootCreateActionWithOptions(resource, object, metav1.CreateOptions{})
}

// NewRootCreateActionWithOptions is NewRootCreateAction with explicit options.
func NewRootCreateActionWithOptions(resource schema.GroupVersionResource, object runtime.Object, opts metav1.CreateOptions) CreateActionImpl {
	return CreateActionImpl{ActionImpl: baseAction("create", resource, "", ""), Object: object, CreateOptions: opts}
}

// NewCreateAction returns an action creating object in namespace.
func NewCreateAction(resource schema.GroupVersionResource, namespace string, object runtime.Object) CreateActionImpl {
	return NewCreateActionWithOptions(resource, namespace, object, metav1.CreateOptions{})
}

// NewCreateActionWithOptions is NewCreateAction with explicit options.
func NewCreateActionWithOptions(resource schema.GroupVersionResource, namespace string, object runtime.Object, opts metav1.CreateOptions) CreateActionImpl {
	return CreateActionImpl{ActionImpl: baseAction("create", resource, namespace, ""), Object: object, CreateOptions: opts}
}

// NewRootCreateSubresourceAction returns an action posting object to a
// subresource of the cluster-scoped object name.
func NewRootCreateSubresourceAction(resource schema.GroupVersionResource, name, subresource string, object runtime.Object) CreateActionImpl {
	return NewRootCreateSubresourceActionWithOptions(resource, name, subresource, object, metav1.CreateOptions{})
}

// NewRootCreateSubresourceActionWithOptions is NewRootCreateSubresourceAction
// with explicit options.
func NewRootCreateSubresourceActionWithOptions(resource schema.GroupVersionResource, name, subresource string, object runtime.Object, opts metav1.CreateOptions) CreateActionImpl {
	return CreateActionImpl{ActionImpl: baseAction("create", resource, "", subresource), Name: name, Object: object, CreateOptions: opts}
}

// NewCreateSubresourceAction returns an action posting object to a
// subresource (such as pods/eviction) of the object name in namespace.
func NewCreateSubresourceAction(resource schema.GroupVersionResource, name, subresource, namespace string, object runtime.Object) CreateActionImpl {
	return NewCreateSubresourceActionWithOptions(resource, name, subresource, namespace, object, metav1.CreateOptions{})
}

// NewCreateSubresourceActionWithOptions is NewCreateSubresourceAction with
// explicit options.
func NewCreateSubresourceActionWithOptions(resource schema.GroupVersionResource, name, subresource, namespace string, object runtime.Object, opts metav1.CreateOptions) CreateActionImpl {
	return CreateActionImpl{ActionImpl: baseAction("create", resource, namespace, subresource), Name: name, Object: object, CreateOptions: opts}
}

// NewRootUpdateAction returns an action replacing a cluster-scoped object.
func NewRootUpdateAction(resource schema.GroupVersionResource, object runtime.Object) UpdateActionImpl {
	return NewRootUpdateActionWithOptions(resource, object, metav1.UpdateOptions{})
}

// NewRootUpdateActionWithOptions is NewRootUpdateAction with explicit options.
func NewRootUpdateActionWithOptions(resource schema.GroupVersionResource, object runtime.Object, opts metav1.UpdateOptions) UpdateActionImpl {
	return UpdateActionImpl{ActionImpl: baseAction("update", resource, "", ""), Object: object, UpdateOptions: opts}
}

// NewUpdateAction returns an action replacing object in namespace.
func NewUpdateAction(resource schema.GroupVersionResource, namespace string, object runtime.Object) UpdateActionImpl {
	return NewUpdateActionWithOptions(resource, namespace, object, metav1.UpdateOptions{})
}

// NewUpdateActionWithOptions is NewUpdateAction with explicit options.
func NewUpdateActionWithOptions(resource schema.GroupVersionResource, namespace string, object runtime.Object, opts metav1.UpdateOptions) UpdateActionImpl {
	return UpdateActionImpl{ActionImpl: baseAction("update", resource, namespace, ""), Object: object, UpdateOptions: opts}
}

// NewRootUpdateSubresourceAction returns an action replacing a subresource
// (such as status) of a cluster-scoped object.
func NewRootUpdateSubresourceAction(resource schema.GroupVersionResource, subresource string, object runtime.Object) UpdateActionImpl {
	return NewRootUpdateSubresourceActionWithOptions(resource, subresource, object, metav1.UpdateOptions{})
}

// NewRootUpdateSubresourceActionWithOptions is NewRootUpdateSubresourceAction
// with explicit options.
func NewRootUpdateSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource string, object runtime.Object, opts metav1.UpdateOptions) UpdateActionImpl {
	return UpdateActionImpl{ActionImpl: baseAction("update", resource, "", subresource), Object: object, UpdateOptions: opts}
}

// NewUpdateSubresourceAction returns an action replacing a subresource (such
// as status) of an object in namespace.
func NewUpdateSubresourceAction(resource schema.GroupVersionResource, subresource string, namespace string, object runtime.Object) UpdateActionImpl {
	return NewUpdateSubresourceActionWithOptions(resource, subresource, namespace, object, metav1.UpdateOptions{})
}

// NewUpdateSubresourceActionWithOptions is NewUpdateSubresourceAction with
// explicit options.
func NewUpdateSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource string, namespace string, object runtime.Object, opts metav1.UpdateOptions) UpdateActionImpl {
	return UpdateActionImpl{ActionImpl: baseAction("update", resource, namespace, subresource), Object: object, UpdateOptions: opts}
}

// NewRootPatchAction returns an action patching a cluster-scoped object.
func NewRootPatchAction(resource schema.GroupVersionResource, name string, pt types.PatchType, patch []byte) PatchActionImpl {
	return NewRootPatchActionWithOptions(resource, name, pt, patch, metav1.PatchOptions{})
}

// NewRootPatchActionWithOptions is NewRootPatchAction with explicit options.
func NewRootPatchActionWithOptions(resource schema.GroupVersionResource, name string, pt types.PatchType, patch []byte, opts metav1.PatchOptions) PatchActionImpl {
	return NewRootPatchSubresourceActionWithOptions(resource, name, pt, patch, opts)
}

// NewPatchAction returns an action patching the object name in namespace.
func NewPatchAction(resource schema.GroupVersionResource, namespace string, name string, pt types.PatchType, patch []byte) PatchActionImpl {
	return NewPatchActionWithOptions(resource, namespace, name, pt, patch, metav1.PatchOptions{})
}

// NewPatchActionWithOptions is NewPatchAction with explicit options.
func NewPatchActionWithOptions(resource schema.GroupVersionResource, namespace string, name string, pt types.PatchType, patch []byte, opts metav1.PatchOptions) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, namespace, name, pt, patch, opts)
}

// NewRootPatchSubresourceAction returns an action patching a subresource of a
// cluster-scoped object; the subresource path segments are joined with "/".
func NewRootPatchSubresourceAction(resource schema.GroupVersionResource, name string, pt types.PatchType, patch []byte, subresources ...string) PatchActionImpl {
	return NewRootPatchSubresourceActionWithOptions(resource, name, pt, patch, metav1.PatchOptions{}, subresources...)
}

// NewRootPatchSubresourceActionWithOptions is NewRootPatchSubresourceAction
// with explicit options.
func NewRootPatchSubresourceActionWithOptions(resource schema.GroupVersionResource, name string, pt types.PatchType, patch []byte, opts metav1.PatchOptions, subresources ...string) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, "", name, pt, patch, opts, subresources...)
}

// NewPatchSubresourceAction returns an action patching a subresource of the
// object name in namespace; no subresources means the object itself.
func NewPatchSubresourceAction(resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, patch []byte, subresources ...string) PatchActionImpl {
	return NewPatchSubresourceActionWithOptions(resource, namespace, name, pt, patch, metav1.PatchOptions{}, subresources...)
}

// NewPatchSubresourceActionWithOptions is NewPatchSubresourceAction with
// explicit options.
func NewPatchSubresourceActionWithOptions(resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, patch []byte, opts metav1.PatchOptions, subresources ...string) PatchActionImpl {
	return PatchActionImpl{
		ActionImpl:   baseAction("patch", resource, namespace, path.Join(subresources...)),
		Name:         name,
		PatchType:    pt,
		Patch:        patch,
		PatchOptions: opts,
	}
}

// NewRootDeleteAction returns an action deleting a cluster-scoped object.
func NewRootDeleteAction(resource schema.GroupVersionResource, name string) DeleteActionImpl {
	return NewRootDeleteActionWithOptions(resource, name, metav1.DeleteOptions{})
}

// NewRootDeleteActionWithOptions is NewRootDeleteAction with explicit options.
func NewRootDeleteActionWithOptions(resource schema.GroupVersionResource, name string, opts metav1.DeleteOptions) DeleteActionImpl {
	return DeleteActionImpl{ActionImpl: baseAction("delete", resource, "", ""), Name: name, DeleteOptions: opts}
}

// NewRootDeleteSubresourceAction returns an action deleting a subresource of
// a cluster-scoped object.
func NewRootDeleteSubresourceAction(resource schema.GroupVersionResource, subresource string, name string) DeleteActionImpl {
	return NewRootDeleteSubresourceActionWithOptions(resource, subresource, name, metav1.DeleteOptions{})
}

// NewRootDeleteSubresourceActionWithOptions is NewRootDeleteSubresourceAction
// with explicit options.
func NewRootDeleteSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource string, name string, opts metav1.DeleteOptions) DeleteActionImpl {
	return DeleteActionImpl{ActionImpl: baseAction("delete", resource, "", subresource), Name: name, DeleteOptions: opts}
}

// NewDeleteAction returns an action deleting the object name in namespace.
func NewDeleteAction(resource schema.GroupVersionResource, namespace, name string) DeleteActionImpl {
	return NewDeleteActionWithOptions(resource, namespace, name, metav1.DeleteOptions{})
}

// NewDeleteActionWithOptions is NewDeleteAction with explicit options.
func NewDeleteActionWithOptions(resource schema.GroupVersionResource, namespace, name string, opts metav1.DeleteOptions) DeleteActionImpl {
	return DeleteActionImpl{ActionImpl: baseAction("delete", resource, namespace, ""), Name: name, DeleteOptions: opts}
}

// NewDeleteSubresourceAction returns an action deleting a subresource of the
// object name in namespace.
func NewDeleteSubresourceAction(resource schema.GroupVersionResource, subresource, namespace, name string) DeleteActionImpl {
	return NewDeleteSubresourceActionWithOptions(resource, subresource, namespace, name, metav1.DeleteOptions{})
}

// NewDeleteSubresourceActionWithOptions is NewDeleteSubresourceAction with
// explicit options.
func NewDeleteSubresourceActionWithOptions(resource schema.GroupVersionResource, subresource, namespace, name string, opts metav1.DeleteOptions) DeleteActionImpl {
	return DeleteActionImpl{ActionImpl: baseAction("delete", resource, namespace, subresource), Name: name, DeleteOptions: opts}
}

// NewRootDeleteCollectionAction returns an action deleting every matching
// cluster-scoped object; opts should be a metav1.ListOptions.
func NewRootDeleteCollectionAction(resource schema.GroupVersionResource, opts interface{}) DeleteCollectionActionImpl {
	listOpts, _ := listOptionsOf(opts)
	return NewRootDeleteCollectionActionWithOptions(resource, metav1.DeleteOptions{}, listOpts)
}

// NewRootDeleteCollectionActionWithOptions is NewRootDeleteCollectionAction
// with explicit delete and list options.
func NewRootDeleteCollectionActionWithOptions(resource schema.GroupVersionResource, deleteOpts metav1.DeleteOptions, listOpts metav1.ListOptions) DeleteCollectionActionImpl {
	return NewDeleteCollectionActionWithOptions(resource, "", deleteOpts, listOpts)
}

// NewDeleteCollectionAction returns an action deleting every matching object
// in namespace; opts should be a metav1.ListOptions.
func NewDeleteCollectionAction(resource schema.GroupVersionResource, namespace string, opts interface{}) DeleteCollectionActionImpl {
	listOpts, _ := listOptionsOf(opts)
	return NewDeleteCollectionActionWithOptions(resource, namespace, metav1.DeleteOptions{}, listOpts)
}

// NewDeleteCollectionActionWithOptions is NewDeleteCollectionAction with
// explicit delete and list options.
func NewDeleteCollectionActionWithOptions(resource schema.GroupVersionResource, namespace string, deleteOpts metav1.DeleteOptions, listOpts metav1.ListOptions) DeleteCollectionActionImpl {
	return DeleteCollectionActionImpl{
		ActionImpl:       baseAction("delete-collection", resource, namespace, ""),
		ListRestrictions: listRestrictionsOf(listOpts),
		DeleteOptions:    deleteOpts,
		ListOptions:      listOpts,
	}
}

// NewRootWatchAction returns an action watching a cluster-scoped resource;
// opts should be a metav1.ListOptions.
func NewRootWatchAction(resource schema.GroupVersionResource, opts interface{}) WatchActionImpl {
	listOpts, _ := listOptionsOf(opts)
	return NewRootWatchActionWithOptions(resource, listOpts)
}

// NewRootWatchActionWithOptions is NewRootWatchAction with typed options.
func NewRootWatchActionWithOptions(resource schema.GroupVersionResource, opts metav1.ListOptions) WatchActionImpl {
	return NewWatchActionWithOptions(resource, "", opts)
}

// NewWatchAction returns an action watching resource in namespace (all
// namespaces when empty); opts should be a metav1.ListOptions.
func NewWatchAction(resource schema.GroupVersionResource, namespace string, opts interface{}) WatchActionImpl {
	listOpts, _ := listOptionsOf(opts)
	return NewWatchActionWithOptions(resource, namespace, listOpts)
}

// NewWatchActionWithOptions is NewWatchAction with typed options.
func NewWatchActionWithOptions(resource schema.GroupVersionResource, namespace string, opts metav1.ListOptions) WatchActionImpl {
	l, f, rv := ExtractFromListOptions(opts)
	return WatchActionImpl{
		ActionImpl:        baseAction("watch", resource, namespace, ""),
		WatchRestrictions: WatchRestrictions{Labels: l, Fields: f, ResourceVersion: rv},
		ListOptions:       opts,
	}
}

// NewProxyGetAction returns an action proxying a GET of path on port of the
// object name (a pod, service or node) through the API server.
func NewProxyGetAction(resource schema.GroupVersionResource, namespace, scheme, name, port, path string, params map[string]string) ProxyGetActionImpl {
	return ProxyGetActionImpl{
		ActionImpl: baseAction("get", resource, namespace, ""),
		Scheme:     scheme,
		Name:       name,
		Port:       port,
		Path:       path,
		Params:     params,
	}
}
