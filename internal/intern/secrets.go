package intern

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Secrets are never shared: their values (data, stringData, and the
// kubectl.kubernetes.io/last-applied-configuration annotation, which
// carries both) must not be kept in tables that outlive the objects and
// serve every informer of the process. Copy returns them as they are, and
// decoders decode them without interning or sharing.
//
// The metadata of a Secret (PartialObjectMetadata) does not say it is one,
// so the last applied configuration is never interned or shared, whatever
// the object: no string table keeps the value of the annotation named
// LastAppliedAnnotation, and no decoder shares a map that holds it.

// LastAppliedAnnotation is the annotation kubectl apply writes the applied
// object into, Secret data included.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// IsSecret reports whether obj is a Secret or a list of Secrets, typed or
// unstructured.
func IsSecret(obj any) bool {
	switch o := obj.(type) {
	case *corev1.Secret, *corev1.SecretList:
		return true
	case *unstructured.Unstructured:
		return o != nil && isSecretKind(o.GetAPIVersion(), o.GetKind())
	case *unstructured.UnstructuredList:
		return o != nil && isSecretKind(o.GetAPIVersion(), o.GetKind())
	}
	return false
}

func isSecretKind(apiVersion, kind string) bool {
	return apiVersion == "v1" && (kind == "Secret" || kind == "SecretList")
}
