package testing

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// serverTracker is implemented by the trackers of this package. Its
// methods know the subresource of a request and return what was stored,
// which the public ObjectTracker methods cannot.
type serverTracker interface {
	trackCreate(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts metav1.CreateOptions) (runtime.Object, error)
	trackUpdate(gvr schema.GroupVersionResource, subresource string, obj runtime.Object, ns string, fieldManager string, opts writeOptions) (runtime.Object, error)
	trackApply(gvr schema.GroupVersionResource, subresource string, cfg *unstructured.Unstructured, ns string, opts metav1.PatchOptions) (runtime.Object, error)
	trackDelete(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error)
	matchingNames(gvr schema.GroupVersionResource, ns string, opts metav1.ListOptions) ([]types.NamespacedName, error)
	baseTracker() *tracker
}

// ObjectReaction returns a ReactionFunc that answers get, list, create,
// update, patch (JSON, merge, strategic merge and apply), delete and
// delete-collection actions from tracker.
//
// A tracker made by NewFieldManagedObjectTracker records managed fields
// and resolves server-side apply with field ownership, conflicts and
// force. With the server-like trackers of this package, writes to the
// status subresource change only the status and dry-run requests are not
// persisted. With trackers from elsewhere it falls back to their
// ObjectTracker methods.
//
// The scale subresource is served as a Scale computed from the parent, and
// writing it changes the parent's spec.replicas; posting a pod eviction
// deletes the pod and posting a binding sets its spec.nodeName. There is
// no defaulting, validation or conversion, and other subresources are not
// modelled: a write to one carrying an object of another type is answered
// with that object and changes nothing.
func ObjectReaction(tracker ObjectTracker) ReactionFunc {
	r := objectReactor{tracker: tracker}
	r.server, _ = tracker.(serverTracker)
	return func(action Action) (bool, runtime.Object, error) {
		obj, err := r.react(action)
		if errors.Is(err, errNoReaction) {
			return false, nil, fmt.Errorf("no reaction implemented for %s", describeAction(action))
		}
		return true, obj, err
	}
}

// errNoReaction is what react answers for an action it leaves to the next
// reactor in the chain.
var errNoReaction = errors.New("no reaction")

// react answers action from the tracker. It switches on the concrete action
// types, because several action interfaces (create and update) are alike.
func (r objectReactor) react(action Action) (runtime.Object, error) {
	if r.isScaleAction(action) {
		switch action.(type) {
		case GetActionImpl, UpdateActionImpl, PatchActionImpl:
			return r.scaleAction(action)
		}
	}
	switch a := action.(type) {
	case GetActionImpl:
		return r.tracker.Get(a.Resource, a.Namespace, a.Name, a.GetOptions)
	case ListActionImpl:
		return r.tracker.List(a.Resource, a.Kind, a.Namespace, a.ListOptions)
	case CreateActionImpl:
		return r.create(a)
	case UpdateActionImpl:
		return r.update(a)
	case PatchActionImpl:
		return r.patch(a)
	case DeleteActionImpl:
		return nil, r.delete(a)
	case DeleteCollectionActionImpl:
		if r.server != nil {
			return nil, r.deleteCollection(a)
		}
	}
	return nil, errNoReaction
}

// objectReactor carries out actions against a tracker; server is set when
// the tracker is one of this package's.
type objectReactor struct {
	tracker ObjectTracker
	server  serverTracker
}

func (r objectReactor) create(a CreateActionImpl) (runtime.Object, error) {
	objMeta, err := meta.Accessor(a.Object)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("object of type %T has no metadata", a.Object))
	}
	if a.Subresource == "" {
		if r.server != nil {
			return r.server.trackCreate(a.Resource, a.Object, a.Namespace, a.CreateOptions)
		}
		if err := r.tracker.Create(a.Resource, a.Object, a.Namespace, a.CreateOptions); err != nil {
			return nil, err
		}
		return r.tracker.Get(a.Resource, a.Namespace, objMeta.GetName())
	}
	// Posting to a subresource: an object of the parent's own type updates
	// the parent; anything else (an Eviction, a Binding, a TokenRequest) is
	// echoed back.
	name := a.Name
	if name == "" {
		name = objMeta.GetName()
	}
	parent, err := r.tracker.Get(a.Resource, a.Namespace, name)
	if err != nil {
		return nil, err
	}
	if r.server != nil && a.Resource.Group == "" && a.Resource.Resource == "pods" {
		switch a.Subresource {
		case "eviction":
			return r.evictPod(a, name)
		case "binding":
			return r.bindPod(a, parent)
		}
	}
	if reflect.TypeOf(parent) != reflect.TypeOf(a.Object) {
		return a.Object, nil
	}
	opts := metav1.UpdateOptions{DryRun: a.CreateOptions.DryRun, FieldManager: a.CreateOptions.FieldManager}
	return r.update(UpdateActionImpl{ActionImpl: a.ActionImpl, Object: a.Object, UpdateOptions: opts})
}

func (r objectReactor) update(a UpdateActionImpl) (runtime.Object, error) {
	if r.server != nil {
		return r.server.trackUpdate(a.Resource, a.Subresource, a.Object, a.Namespace, a.UpdateOptions.FieldManager, writeOptions{dryRun: a.UpdateOptions.DryRun})
	}
	objMeta, err := meta.Accessor(a.Object)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("object of type %T has no metadata", a.Object))
	}
	if err := r.tracker.Update(a.Resource, a.Object, a.Namespace, a.UpdateOptions); err != nil {
		return nil, err
	}
	return r.tracker.Get(a.Resource, a.Namespace, objMeta.GetName())
}

func (r objectReactor) patch(a PatchActionImpl) (runtime.Object, error) {
	if a.PatchType == types.ApplyPatchType {
		content := map[string]interface{}{}
		if err := yaml.Unmarshal(a.Patch, &content); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid apply configuration: %v", err))
		}
		cfg := &unstructured.Unstructured{Object: content}
		cfg.SetName(a.Name)
		if r.server != nil {
			return r.server.trackApply(a.Resource, a.Subresource, cfg, a.Namespace, a.PatchOptions)
		}
		if err := r.tracker.Apply(a.Resource, cfg, a.Namespace, a.PatchOptions); err != nil {
			return nil, err
		}
		return r.tracker.Get(a.Resource, a.Namespace, a.Name)
	}

	current, err := r.tracker.Get(a.Resource, a.Namespace, a.Name)
	if err != nil {
		return nil, err
	}
	patched, err := patchObject(current, a.PatchType, a.Patch)
	if err != nil {
		if a.PatchType != types.JSONPatchType && a.PatchType != types.MergePatchType && a.PatchType != types.StrategicMergePatchType {
			return nil, &apierrors.StatusError{ErrStatus: metav1.Status{
				Status:  metav1.StatusFailure,
				Code:    http.StatusUnsupportedMediaType,
				Reason:  metav1.StatusReasonUnsupportedMediaType,
				Message: fmt.Sprintf("the patch type %q is not supported", a.PatchType),
			}}
		}
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if r.server != nil {
		return r.server.trackUpdate(a.Resource, a.Subresource, patched, a.Namespace, a.PatchOptions.FieldManager, writeOptions{dryRun: a.PatchOptions.DryRun})
	}
	if err := r.tracker.Patch(a.Resource, patched, a.Namespace, a.PatchOptions); err != nil {
		return nil, err
	}
	return patched, nil
}

func (r objectReactor) delete(a DeleteActionImpl) error {
	if r.server != nil {
		_, err := r.server.trackDelete(a.Resource, a.Namespace, a.Name, a.DeleteOptions)
		return err
	}
	return r.tracker.Delete(a.Resource, a.Namespace, a.Name, a.DeleteOptions)
}

func (r objectReactor) deleteCollection(a DeleteCollectionActionImpl) error {
	names, err := r.server.matchingNames(a.Resource, a.Namespace, a.ListOptions)
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, err := r.server.trackDelete(a.Resource, n.Namespace, n.Name, a.DeleteOptions); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// The plain tracker's side of serverTracker.

func (t *tracker) trackCreate(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts metav1.CreateOptions) (runtime.Object, error) {
	return t.write(gvr, "", obj, ns, writeCreate, writeOptions{dryRun: opts.DryRun})
}

func (t *tracker) trackUpdate(gvr schema.GroupVersionResource, subresource string, obj runtime.Object, ns string, _ string, opts writeOptions) (runtime.Object, error) {
	return t.write(gvr, subresource, obj, ns, writeUpdate, opts)
}

func (t *tracker) trackApply(gvr schema.GroupVersionResource, subresource string, cfg *unstructured.Unstructured, ns string, opts metav1.PatchOptions) (runtime.Object, error) {
	return t.applyMerge(gvr, subresource, cfg, ns, opts)
}

func (t *tracker) trackDelete(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error) {
	return t.deleteObject(gvr, ns, name, opts)
}

// matchingNames returns the keys of the objects of gvr a list with opts
// would return.
func (t *tracker) matchingNames(gvr schema.GroupVersionResource, ns string, opts metav1.ListOptions) ([]types.NamespacedName, error) {
	sel, err := newObjectSelector(ns, opts)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []types.NamespacedName
	if s, ok := t.resources[gvr]; ok {
		for key, so := range s.objects {
			if sel.matches(so.obj) {
				out = append(out, key)
			}
		}
	}
	return out, nil
}
