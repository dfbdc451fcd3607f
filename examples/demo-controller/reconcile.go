package main

import (
	"context"
	"fmt"
	"maps"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/tools/cache"
)

const (
	// ManagedLabel marks the ConfigMaps that are the controller's inputs.
	ManagedLabel = "demo.kubeclient.io/managed"
	// DerivedFromLabel names, on a status object, the input it belongs to.
	DerivedFromLabel = "demo.kubeclient.io/derived-from"
	// ReplicasKey is the data key, in inputs and status objects alike, that
	// holds the replica count.
	ReplicasKey = "replicas"
	// ObservedKey is the status data key that holds the input's
	// resourceVersion the status was computed from.
	ObservedKey = "observed-resource-version"

	statusSuffix = "-status"
)

// Event reasons recorded on inputs.
const (
	ReasonStatusCreated   = "StatusCreated"
	ReasonStatusUpdated   = "StatusUpdated"
	ReasonInvalidReplicas = "InvalidReplicas"
	ReasonStatusForeign   = "StatusNotOwned"
)

// StatusName is the name of the status object derived from input.
func StatusName(input string) string { return input + statusSuffix }

// isInput reports whether cm is one of the controller's inputs.
func isInput(cm *corev1.ConfigMap) bool { return cm.Labels[ManagedLabel] == "true" }

// inputOf returns the name of the input that owns the status object cm, or "".
func inputOf(cm *corev1.ConfigMap) string {
	for _, ref := range cm.OwnerReferences {
		if ref.Kind == "ConfigMap" && ref.APIVersion == "v1" && ref.Controller != nil && *ref.Controller {
			return ref.Name
		}
	}
	return ""
}

// parseReplicas reads the requested replica count of input.
func parseReplicas(input *corev1.ConfigMap) (int32, error) {
	raw, ok := input.Data[ReplicasKey]
	if !ok {
		return 0, fmt.Errorf("data key %q is missing", ReplicasKey)
	}
	n, err := strconv.ParseInt(raw, 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("data key %q must be a non-negative integer, got %q", ReplicasKey, raw)
	}
	return int32(n), nil
}

// desiredStatus builds the status object that input asks for.
func desiredStatus(input *corev1.ConfigMap, replicas int32) *corev1.ConfigMap {
	controller := true
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:      StatusName(input.Name),
			Namespace: input.Namespace,
			Labels:    map[string]string{DerivedFromLabel: input.Name},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1",
				Kind:       "ConfigMap",
				Name:       input.Name,
				UID:        input.UID,
				Controller: &controller,
			}},
		},
		Data: map[string]string{
			ReplicasKey: strconv.Itoa(int(replicas)),
			ObservedKey: input.ResourceVersion,
		},
	}
}

// ownedBy reports whether status is controlled by the input with uid.
func ownedBy(status *corev1.ConfigMap, uid types.UID) bool {
	for _, ref := range status.OwnerReferences {
		if ref.UID == uid && ref.Controller != nil && *ref.Controller {
			return true
		}
	}
	return false
}

// Outcome says what one reconcile did.
type Outcome string

// The outcomes of a reconcile.
const (
	OutcomeCreated   Outcome = "created"
	OutcomeUpdated   Outcome = "updated"
	OutcomeUnchanged Outcome = "unchanged"
	OutcomeDeleted   Outcome = "deleted"
	OutcomeGone      Outcome = "gone"
	OutcomeInvalid   Outcome = "invalid"
)

// reconcile brings the status object of the input named by key in line with
// the input. A returned error asks for a retry; invalid inputs are reported
// with an event and are not retried, since retrying cannot fix them.
func (c *Controller) reconcile(ctx context.Context, key string) (Outcome, error) {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return "", fmt.Errorf("bad queue key %q: %w", key, err)
	}
	configMaps := c.client.CoreV1().ConfigMaps(namespace)

	input, err := c.lister.ConfigMaps(namespace).Get(name)
	if apierrors.IsNotFound(err) || (err == nil && !isInput(input)) {
		return c.removeStatus(ctx, namespace, name)
	}
	if err != nil {
		return "", err
	}

	replicas, err := parseReplicas(input)
	if err != nil {
		c.recorder.Eventf(input, corev1.EventTypeWarning, ReasonInvalidReplicas, "not reconciled: %v", err)
		return OutcomeInvalid, nil
	}
	want := desiredStatus(input, replicas)

	have, err := c.lister.ConfigMaps(namespace).Get(want.Name)
	switch {
	case apierrors.IsNotFound(err):
		if _, err := configMaps.Create(ctx, want, metav1.CreateOptions{}); err != nil {
			return "", fmt.Errorf("creating %s/%s: %w", namespace, want.Name, err)
		}
		c.recorder.Eventf(input, corev1.EventTypeNormal, ReasonStatusCreated, "created %s with %d replicas", want.Name, replicas)
		return OutcomeCreated, nil
	case err != nil:
		return "", err
	}

	if !ownedBy(have, input.UID) {
		c.recorder.Eventf(input, corev1.EventTypeWarning, ReasonStatusForeign, "%s exists and is not controlled by this input", want.Name)
		return "", fmt.Errorf("%s/%s is not controlled by input uid %s", namespace, want.Name, input.UID)
	}
	if have.Data[ReplicasKey] == want.Data[ReplicasKey] {
		return OutcomeUnchanged, nil
	}
	updated := have.DeepCopy()
	if updated.Data == nil {
		updated.Data = map[string]string{}
	}
	maps.Copy(updated.Data, want.Data)
	if _, err := configMaps.Update(ctx, updated, metav1.UpdateOptions{}); err != nil {
		// A conflict means our cache was behind; the retry sees fresher state.
		return "", fmt.Errorf("updating %s/%s: %w", namespace, want.Name, err)
	}
	c.recorder.Eventf(input, corev1.EventTypeNormal, ReasonStatusUpdated, "%s now has %d replicas (was %s)", want.Name, replicas, have.Data[ReplicasKey])
	return OutcomeUpdated, nil
}

// removeStatus deletes the status object of a deleted input. Without a
// garbage collector nothing else would.
func (c *Controller) removeStatus(ctx context.Context, namespace, input string) (Outcome, error) {
	status, err := c.lister.ConfigMaps(namespace).Get(StatusName(input))
	if apierrors.IsNotFound(err) {
		return OutcomeGone, nil
	}
	if err != nil {
		return "", err
	}
	if inputOf(status) != input {
		return OutcomeGone, nil // not ours to delete
	}
	precondition := metav1.Preconditions{UID: &status.UID}
	err = c.client.CoreV1().ConfigMaps(namespace).Delete(ctx, status.Name, metav1.DeleteOptions{Preconditions: &precondition})
	if err != nil && !apierrors.IsNotFound(err) {
		return "", fmt.Errorf("deleting %s/%s: %w", namespace, status.Name, err)
	}
	return OutcomeDeleted, nil
}
