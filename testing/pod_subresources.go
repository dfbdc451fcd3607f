package testing

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// The eviction and binding subresources of pods are modelled on what the
// API server does with them: an eviction deletes the pod (honouring its
// delete options and finalizers; disruption budgets are not checked) and a
// binding assigns the pod to a node.

// evictPod deletes the pod named by the eviction posted in a and returns
// the eviction.
func (r objectReactor) evictPod(a CreateActionImpl, name string) (runtime.Object, error) {
	content, err := contentOf(a.Object)
	if err != nil {
		return nil, err
	}
	var opts metav1.DeleteOptions
	if raw, found, _ := unstructured.NestedMap(content, "deleteOptions"); found {
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &opts); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid deleteOptions in eviction: %v", err))
		}
	}
	if len(a.CreateOptions.DryRun) > 0 {
		opts.DryRun = a.CreateOptions.DryRun
	}
	if _, err := r.server.trackDelete(a.Resource, a.Namespace, name, opts); err != nil {
		return nil, err
	}
	return a.Object, nil
}

// bindPod sets spec.nodeName of the pod from the target of the binding
// posted in a, refusing to move a pod that is already assigned, and
// returns the binding.
func (r objectReactor) bindPod(a CreateActionImpl, parent runtime.Object) (runtime.Object, error) {
	content, err := contentOf(a.Object)
	if err != nil {
		return nil, err
	}
	node, _, _ := unstructured.NestedString(content, "target", "name")
	if node == "" {
		return nil, apierrors.NewBadRequest("binding has no target name")
	}
	podContent, err := contentOf(parent)
	if err != nil {
		return nil, err
	}
	podContent = runtime.DeepCopyJSON(podContent)
	if current, _, _ := unstructured.NestedString(podContent, "spec", "nodeName"); current != "" {
		name, _, _ := unstructured.NestedString(podContent, "metadata", "name")
		return nil, apierrors.NewConflict(a.Resource.GroupResource(), name, fmt.Errorf("pod %s is already assigned to node %q", name, current))
	}
	if err := unstructured.SetNestedField(podContent, node, "spec", "nodeName"); err != nil {
		return nil, err
	}
	bound, err := objectLike(parent, podContent)
	if err != nil {
		return nil, err
	}
	if _, err := r.server.trackUpdate(a.Resource, "", bound, a.Namespace, a.CreateOptions.FieldManager, writeOptions{dryRun: a.CreateOptions.DryRun}); err != nil {
		return nil, err
	}
	return a.Object, nil
}
