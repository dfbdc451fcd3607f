package scheme

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Scale is the version-independent form of a scale subresource: the desired
// and observed replica counts of a scalable resource.
type Scale struct {
	metav1.TypeMeta
	// ObjectMeta is the metadata of the scaled object.
	// +optional
	metav1.ObjectMeta

	// Spec holds the desired replica count.
	// +optional
	Spec ScaleSpec

	// Status holds the observed replica count; it is read-only.
	// +optional
	Status ScaleStatus
}

// ScaleSpec is the desired state of a scale subresource.
type ScaleSpec struct {
	// Replicas is the desired number of instances.
	// +optional
	Replicas int32
}

// ScaleStatus is the observed state of a scale subresource.
type ScaleStatus struct {
	// Replicas is the number of instances observed.
	Replicas int32

	// Selector selects the pods counted in Replicas.
	// +optional
	Selector *metav1.LabelSelector
}
