package appsv1beta2

import (
	appsapiv1beta2 "k8s.io/api/apps/v1beta2"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the apps API group.
const GroupName = appsapiv1beta2.GroupName

// SchemeGroupVersion is apps/v1beta2.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1beta2"}

// Resource qualifies resource with GroupName.
func Resource(resource string) schema.GroupResource {
	return schema.GroupResource{Group: GroupName, Resource: resource}
}

var (
	// localSchemeBuilder registers the apps/v1beta2 types and the Scale
	// conversions of this package.
	localSchemeBuilder = runtime.NewSchemeBuilder(appsapiv1beta2.AddToScheme, RegisterConversions)
	// AddToScheme registers the apps/v1beta2 types, including Scale, and the
	// conversions between that Scale and scheme.Scale.
	AddToScheme = localSchemeBuilder.AddToScheme
)
