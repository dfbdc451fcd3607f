package extensionsv1beta1

import (
	extensionsapiv1beta1 "k8s.io/api/extensions/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the extensions API group.
const GroupName = extensionsapiv1beta1.GroupName

// SchemeGroupVersion is extensions/v1beta1.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1beta1"}

// Resource qualifies resource with GroupName.
func Resource(resource string) schema.GroupResource {
	return schema.GroupResource{Group: GroupName, Resource: resource}
}

var (
	// localSchemeBuilder registers the extensions/v1beta1 types and the Scale
	// conversions of this package.
	localSchemeBuilder = runtime.NewSchemeBuilder(extensionsapiv1beta1.AddToScheme, RegisterConversions)
	// AddToScheme registers the extensions/v1beta1 types, including Scale, and the
	// conversions between that Scale and scheme.Scale.
	AddToScheme = localSchemeBuilder.AddToScheme
)
