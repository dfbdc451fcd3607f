package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of exec credential plugins.
const GroupName = "client.authentication.k8s.io"

// SchemeGroupVersion is the group version of this package.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1beta1"}

// Resource qualifies resource with this API group.
func Resource(resource string) schema.GroupResource {
	return schema.GroupResource{Group: GroupName, Resource: resource}
}

var (
	// SchemeBuilder collects the functions that register this version's
	// types and conversions.
	SchemeBuilder      runtime.SchemeBuilder
	localSchemeBuilder = &SchemeBuilder
	// AddToScheme registers this version with a scheme.
	AddToScheme = localSchemeBuilder.AddToScheme
)

func init() {
	localSchemeBuilder.Register(addKnownTypes, RegisterConversions, RegisterDefaults)
}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion, &ExecCredential{})
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}

// RegisterDefaults adds this version's defaulters to scheme. The version
// has no defaults, so it registers nothing.
func RegisterDefaults(scheme *runtime.Scheme) error {
	return nil
}
