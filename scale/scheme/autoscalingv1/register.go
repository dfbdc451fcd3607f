package autoscalingv1

import (
	autoscalingapiv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the autoscaling API group.
const GroupName = autoscalingapiv1.GroupName

// SchemeGroupVersion is autoscaling/v1.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}

// Resource qualifies resource with GroupName.
func Resource(resource string) schema.GroupResource {
	return schema.GroupResource{Group: GroupName, Resource: resource}
}

var (
	// localSchemeBuilder registers the autoscaling/v1 types and the Scale
	// conversions of this package.
	localSchemeBuilder = runtime.NewSchemeBuilder(autoscalingapiv1.AddToScheme, RegisterConversions)
	// AddToScheme registers the autoscaling/v1 types, including Scale, and the
	// conversions between that Scale and scheme.Scale.
	AddToScheme = localSchemeBuilder.AddToScheme
)
