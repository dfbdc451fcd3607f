package testing

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// ActionImpl holds the fields common to every action; the other *Impl types
// embed it.
type ActionImpl struct {
	Namespace   string
	Verb        string
	Resource    schema.GroupVersionResource
	Subresource string
}

// GetNamespace returns the namespace addressed, empty for cluster scope.
func (a ActionImpl) GetNamespace() string { return a.Namespace }

// GetVerb returns the verb, such as "get" or "delete-collection".
func (a ActionImpl) GetVerb() string { return a.Verb }

// GetResource returns the resource addressed.
func (a ActionImpl) GetResource() schema.GroupVersionResource { return a.Resource }

// GetSubresource returns the subresource addressed, empty for the object
// itself.
func (a ActionImpl) GetSubresource() string { return a.Subresource }

// Matches reports whether the action has the given verb and resource,
// ignoring case. A resource of the form "pods/status" also requires the
// subresource to match; a plain resource matches any subresource.
func (a ActionImpl) Matches(verb, resource string) bool {
	if !strings.EqualFold(verb, a.Verb) {
		return false
	}
	top, sub, hasSub := strings.Cut(resource, "/")
	if !strings.EqualFold(top, a.Resource.Resource) {
		return false
	}
	return !hasSub || strings.EqualFold(sub, a.Subresource)
}

// DeepCopy returns a copy of the action.
func (a ActionImpl) DeepCopy() Action { return a }

// GenericActionImpl is an action carrying an arbitrary Value.
type GenericActionImpl struct {
	ActionImpl
	Value interface{}
}

// GetValue returns the carried value.
func (a GenericActionImpl) GetValue() interface{} { return a.Value }

// DeepCopy returns a copy of the action; Value is copied only when it is a
// runtime.Object, since arbitrary values cannot be copied generically.
func (a GenericActionImpl) DeepCopy() Action {
	v := a.Value
	if obj, ok := v.(runtime.Object); ok && obj != nil {
		v = obj.DeepCopyObject()
	}
	return GenericActionImpl{ActionImpl: a.ActionImpl, Value: v}
}

// GetActionImpl reads one named object.
type GetActionImpl struct {
	ActionImpl
	Name       string
	GetOptions metav1.GetOptions
}

// GetName returns the name of the object read.
func (a GetActionImpl) GetName() string { return a.Name }

// GetGetOptions returns the options of the read.
func (a GetActionImpl) GetGetOptions() metav1.GetOptions { return a.GetOptions }

// DeepCopy returns an independent copy of the action.
func (a GetActionImpl) DeepCopy() Action {
	return GetActionImpl{ActionImpl: a.ActionImpl, Name: a.Name, GetOptions: *a.GetOptions.DeepCopy()}
}

// ListActionImpl lists objects of Kind.
type ListActionImpl struct {
	ActionImpl
	Kind             schema.GroupVersionKind
	Name             string
	ListRestrictions ListRestrictions
	ListOptions      metav1.ListOptions
}

// GetKind returns the kind of the listed items.
func (a ListActionImpl) GetKind() schema.GroupVersionKind { return a.Kind }

// GetListRestrictions returns the parsed selectors.
func (a ListActionImpl) GetListRestrictions() ListRestrictions { return a.ListRestrictions }

// GetListOptions returns the options of the list.
func (a ListActionImpl) GetListOptions() metav1.ListOptions { return a.ListOptions }

// DeepCopy returns an independent copy of the action.
func (a ListActionImpl) DeepCopy() Action {
	return ListActionImpl{
		ActionImpl:       a.ActionImpl,
		Kind:             a.Kind,
		Name:             a.Name,
		ListRestrictions: a.ListRestrictions.deepCopy(),
		ListOptions:      *a.ListOptions.DeepCopy(),
	}
}

func (r ListRestrictions) deepCopy() ListRestrictions {
	out := ListRestrictions{}
	if r.Labels != nil {
		out.Labels = r.Labels.DeepCopySelector()
	}
	if r.Fields != nil {
		out.Fields = r.Fields.DeepCopySelector()
	}
	return out
}

// CreateActionImpl creates Object (or posts it to a subresource of Name).
type CreateActionImpl struct {
	ActionImpl
	Name          string
	Object        runtime.Object
	CreateOptions metav1.CreateOptions
}

// GetObject returns the object sent.
func (a CreateActionImpl) GetObject() runtime.Object { return a.Object }

// GetCreateOptions returns the options of the create.
func (a CreateActionImpl) GetCreateOptions() metav1.CreateOptions { return a.CreateOptions }

// DeepCopy returns an independent copy of the action.
func (a CreateActionImpl) DeepCopy() Action {
	return CreateActionImpl{ActionImpl: a.ActionImpl, Name: a.Name, Object: copyObject(a.Object), CreateOptions: *a.CreateOptions.DeepCopy()}
}

// UpdateActionImpl replaces an object (or one of its subresources).
type UpdateActionImpl struct {
	ActionImpl
	Object        runtime.Object
	UpdateOptions metav1.UpdateOptions
}

// GetObject returns the object sent.
func (a UpdateActionImpl) GetObject() runtime.Object { return a.Object }

// GetUpdateOptions returns the options of the update.
func (a UpdateActionImpl) GetUpdateOptions() metav1.UpdateOptions { return a.UpdateOptions }

// DeepCopy returns an independent copy of the action.
func (a UpdateActionImpl) DeepCopy() Action {
	return UpdateActionImpl{ActionImpl: a.ActionImpl, Object: copyObject(a.Object), UpdateOptions: *a.UpdateOptions.DeepCopy()}
}

// PatchActionImpl patches the object Name.
type PatchActionImpl struct {
	ActionImpl
	Name         string
	PatchType    types.PatchType
	Patch        []byte
	PatchOptions metav1.PatchOptions
}

// GetName returns the name of the patched object.
func (a PatchActionImpl) GetName() string { return a.Name }

// GetPatch returns the patch document.
func (a PatchActionImpl) GetPatch() []byte { return a.Patch }

// GetPatchType returns the patch format.
func (a PatchActionImpl) GetPatchType() types.PatchType { return a.PatchType }

// GetPatchOptions returns the options of the patch.
func (a PatchActionImpl) GetPatchOptions() metav1.PatchOptions { return a.PatchOptions }

// DeepCopy returns an independent copy of the action.
func (a PatchActionImpl) DeepCopy() Action {
	var patch []byte
	if a.Patch != nil {
		patch = append([]byte{}, a.Patch...)
	}
	return PatchActionImpl{ActionImpl: a.ActionImpl, Name: a.Name, PatchType: a.PatchType, Patch: patch, PatchOptions: *a.PatchOptions.DeepCopy()}
}

// DeleteActionImpl deletes the object Name.
type DeleteActionImpl struct {
	ActionImpl
	Name          string
	DeleteOptions metav1.DeleteOptions
}

// GetName returns the name of the deleted object.
func (a DeleteActionImpl) GetName() string { return a.Name }

// GetDeleteOptions returns the options of the delete.
func (a DeleteActionImpl) GetDeleteOptions() metav1.DeleteOptions { return a.DeleteOptions }

// DeepCopy returns an independent copy of the action.
func (a DeleteActionImpl) DeepCopy() Action {
	return DeleteActionImpl{ActionImpl: a.ActionImpl, Name: a.Name, DeleteOptions: *a.DeleteOptions.DeepCopy()}
}

// DeleteCollectionActionImpl deletes every object matching the selectors.
type DeleteCollectionActionImpl struct {
	ActionImpl
	ListRestrictions ListRestrictions
	DeleteOptions    metav1.DeleteOptions
	ListOptions      metav1.ListOptions
}

// GetListRestrictions returns the parsed selectors.
func (a DeleteCollectionActionImpl) GetListRestrictions() ListRestrictions { return a.ListRestrictions }

// GetDeleteOptions returns the options applied to each deletion.
func (a DeleteCollectionActionImpl) GetDeleteOptions() metav1.DeleteOptions { return a.DeleteOptions }

// GetListOptions returns the options selecting the objects.
func (a DeleteCollectionActionImpl) GetListOptions() metav1.ListOptions { return a.ListOptions }

// DeepCopy returns an independent copy of the action.
func (a DeleteCollectionActionImpl) DeepCopy() Action {
	return DeleteCollectionActionImpl{
		ActionImpl:       a.ActionImpl,
		ListRestrictions: a.ListRestrictions.deepCopy(),
		DeleteOptions:    *a.DeleteOptions.DeepCopy(),
		ListOptions:      *a.ListOptions.DeepCopy(),
	}
}

// WatchActionImpl opens a watch.
type WatchActionImpl struct {
	ActionImpl
	WatchRestrictions WatchRestrictions
	ListOptions       metav1.ListOptions
}

// GetWatchRestrictions returns the parsed selectors and resourceVersion.
func (a WatchActionImpl) GetWatchRestrictions() WatchRestrictions { return a.WatchRestrictions }

// GetListOptions returns the options of the watch.
func (a WatchActionImpl) GetListOptions() metav1.ListOptions { return a.ListOptions }

// DeepCopy returns an independent copy of the action.
func (a WatchActionImpl) DeepCopy() Action {
	r := a.WatchRestrictions
	if r.Labels != nil {
		r.Labels = r.Labels.DeepCopySelector()
	}
	if r.Fields != nil {
		r.Fields = r.Fields.DeepCopySelector()
	}
	return WatchActionImpl{ActionImpl: a.ActionImpl, WatchRestrictions: r, ListOptions: *a.ListOptions.DeepCopy()}
}

// ProxyGetActionImpl proxies a GET to a pod, service or node.
type ProxyGetActionImpl struct {
	ActionImpl
	Scheme string
	Name   string
	Port   string
	Path   string
	Params map[string]string
}

// GetScheme returns the URL scheme used towards the target.
func (a ProxyGetActionImpl) GetScheme() string { return a.Scheme }

// GetName returns the name of the target object.
func (a ProxyGetActionImpl) GetName() string { return a.Name }

// GetPort returns the target port, by name or number.
func (a ProxyGetActionImpl) GetPort() string { return a.Port }

// GetPath returns the path requested on the target.
func (a ProxyGetActionImpl) GetPath() string { return a.Path }

// GetParams returns the query parameters.
func (a ProxyGetActionImpl) GetParams() map[string]string { return a.Params }

// DeepCopy returns an independent copy of the action.
func (a ProxyGetActionImpl) DeepCopy() Action {
	params := make(map[string]string, len(a.Params))
	for k, v := range a.Params {
		params[k] = v
	}
	out := a
	out.Params = params
	return out
}

// copyObject deep-copies obj, tolerating nil.
func copyObject(obj runtime.Object) runtime.Object {
	if obj == nil {
		return nil
	}
	return obj.DeepCopyObject()
}

// describeAction names an action for error messages.
func describeAction(a Action) string {
	target := a.GetResource().Resource
	if sub := a.GetSubresource(); sub != "" {
		target += "/" + sub
	}
	if g := a.GetResource().Group; g != "" {
		target += "." + g
	}
	if ns := a.GetNamespace(); ns != "" {
		return a.GetVerb() + " " + target + " in namespace " + ns
	}
	return a.GetVerb() + " " + target
}
