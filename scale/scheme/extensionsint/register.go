package extensionsint

import (
	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/scale/scheme"
)

// GroupName is the extensions API group.
const GroupName = extensionsv1beta1.GroupName

// SchemeGroupVersion is the internal version of GroupName.
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
	// SchemeBuilder collects the functions that register the internal Scale
	// under SchemeGroupVersion.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme registers the internal Scale under SchemeGroupVersion.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes registers scheme.Scale under SchemeGroupVersion.
func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &scheme.Scale{})
	return nil
}
