package scheme

import (
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group the internal Scale is registered under.
const GroupName = autoscalingv1.GroupName

// SchemeGroupVersion is the internal version of GroupName that Scale is
// registered under.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: runtime.APIVersionInternal}

// Kind qualifies kind with GroupName.
func Kind(kind string) schema.GroupKind {
	return schema.GroupKind{Group: GroupName, Kind: kind}
}

// Resource qualifies resource with GroupName.
func Resource(resource string) schema.GroupResource {
	return schema.GroupResource{Group: GroupName, Resource: resource}
}

var (
	// SchemeBuilder collects the functions that register this package's
	// types.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme registers the internal Scale with a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes registers Scale under SchemeGroupVersion.
func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Scale{})
	return nil
}
