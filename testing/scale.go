package testing

import (
	"fmt"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// The scale subresource is modelled the way the API server serves it for
// deployments, replica sets, stateful sets and replication controllers: a
// Scale object derived from the parent's spec.replicas, status.replicas
// and selector, whose writes change the parent's spec.replicas.

const scaleSubresource = "scale"

// scaleOf builds the Scale view of parent. The Scale type is the one of the
// parent's group and version when the scheme has one (apps/v1beta2,
// extensions/v1beta1), autoscaling/v1 otherwise.
func (t *tracker) scaleOf(gvr schema.GroupVersionResource, parent runtime.Object) (runtime.Object, error) {
	content, err := contentOf(parent)
	if err != nil {
		return nil, err
	}
	m, err := meta.Accessor(parent)
	if err != nil {
		return nil, err
	}
	replicas, _, _ := unstructured.NestedInt64(content, "spec", "replicas")
	current, _, _ := unstructured.NestedInt64(content, "status", "replicas")
	selector := selectorString(content)

	scaleGVK := schema.GroupVersionKind{Group: gvr.Group, Version: gvr.Version, Kind: "Scale"}
	scale, err := t.scheme.New(scaleGVK)
	if err != nil {
		scaleGVK = autoscalingv1.SchemeGroupVersion.WithKind("Scale")
		scale = &autoscalingv1.Scale{}
	}
	status := map[string]interface{}{"replicas": current}
	if scaleGVK.Group == autoscalingv1.GroupName {
		status["selector"] = selector
	} else {
		status["targetSelector"] = selector
	}
	scaleContent := map[string]interface{}{
		"apiVersion": scaleGVK.GroupVersion().String(),
		"kind":       "Scale",
		"metadata": map[string]interface{}{
			"name":            m.GetName(),
			"namespace":       m.GetNamespace(),
			"uid":             string(m.GetUID()),
			"resourceVersion": m.GetResourceVersion(),
		},
		"spec":   map[string]interface{}{"replicas": replicas},
		"status": status,
	}
	if ts := m.GetCreationTimestamp(); !ts.IsZero() {
		scaleContent["metadata"].(map[string]interface{})["creationTimestamp"] = ts.UTC().Format("2006-01-02T15:04:05Z")
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(scaleContent, scale); err != nil {
		return nil, err
	}
	return scale, nil
}

// selectorString renders spec.selector, a LabelSelector or (for
// replication controllers) a plain map, as a selector string.
func selectorString(content map[string]interface{}) string {
	raw, found, _ := unstructured.NestedMap(content, "spec", "selector")
	if !found {
		return ""
	}
	if _, structured := raw["matchLabels"]; structured || raw["matchExpressions"] != nil {
		var ls metav1.LabelSelector
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &ls); err != nil {
			return ""
		}
		sel, err := metav1.LabelSelectorAsSelector(&ls)
		if err != nil {
			return ""
		}
		return sel.String()
	}
	set := labels.Set{}
	for k, v := range raw {
		if s, ok := v.(string); ok {
			set[k] = s
		}
	}
	return labels.SelectorFromSet(set).String()
}

// withReplicasOf returns parent with spec.replicas taken from scale, and the
// resourceVersion of scale as the write precondition when it has one.
func withReplicasOf(parent, scale runtime.Object) (runtime.Object, error) {
	scaleContent, err := contentOf(scale)
	if err != nil {
		return nil, err
	}
	replicas, _, err := unstructured.NestedInt64(scaleContent, "spec", "replicas")
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid spec.replicas in scale: %v", err))
	}
	content, err := contentOf(parent)
	if err != nil {
		return nil, err
	}
	content = runtime.DeepCopyJSON(content)
	if err := unstructured.SetNestedField(content, replicas, "spec", "replicas"); err != nil {
		return nil, err
	}
	updated, err := objectLike(parent, content)
	if err != nil {
		return nil, err
	}
	if sm, err := meta.Accessor(scale); err == nil && sm.GetResourceVersion() != "" {
		if um, err := meta.Accessor(updated); err == nil {
			um.SetResourceVersion(sm.GetResourceVersion())
		}
	}
	return updated, nil
}

// isScaleAction reports whether a is addressed to the scale subresource
// and can be modelled with this tracker.
func (r objectReactor) isScaleAction(a Action) bool {
	return r.server != nil && a.GetSubresource() == scaleSubresource
}

// scaleAction answers get, update, patch and apply of the scale
// subresource.
func (r objectReactor) scaleAction(action Action) (runtime.Object, error) {
	base := r.server.baseTracker()
	gvr, ns := action.GetResource(), action.GetNamespace()
	var name string
	switch a := action.(type) {
	case GetActionImpl:
		name = a.Name
	case PatchActionImpl:
		name = a.Name
	case UpdateActionImpl:
		m, err := meta.Accessor(a.Object)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("object of type %T has no metadata", a.Object))
		}
		name = m.GetName()
	}
	parent, err := r.tracker.Get(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	current, err := base.scaleOf(gvr, parent)
	if err != nil {
		return nil, err
	}

	var desired runtime.Object
	var manager string
	var dryRun []string
	switch a := action.(type) {
	case GetActionImpl:
		return current, nil
	case UpdateActionImpl:
		desired, manager, dryRun = a.Object, a.UpdateOptions.FieldManager, a.UpdateOptions.DryRun
	case PatchActionImpl:
		manager, dryRun = a.PatchOptions.FieldManager, a.PatchOptions.DryRun
		if a.PatchType == types.ApplyPatchType {
			cfg := map[string]interface{}{}
			if err := yaml.Unmarshal(a.Patch, &cfg); err != nil {
				return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid apply configuration: %v", err))
			}
			desired, err = strategicMergeObject(current, cfg)
		} else {
			desired, err = patchObject(current, a.PatchType, a.Patch)
		}
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
	}
	updated, err := withReplicasOf(parent, desired)
	if err != nil {
		return nil, err
	}
	stored, err := r.server.trackUpdate(gvr, "", updated, ns, manager, writeOptions{dryRun: dryRun})
	if err != nil {
		return nil, err
	}
	return base.scaleOf(gvr, stored)
}

func (t *tracker) baseTracker() *tracker { return t }

func (t *managedFieldObjectTracker) baseTracker() *tracker { return t.base }
