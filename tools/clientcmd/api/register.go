package api

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SchemeGroupVersion is the internal group version of the kubeconfig types.
// Kubeconfig has no API group of its own, so the group is empty.
var SchemeGroupVersion = schema.GroupVersion{Group: "", Version: runtime.APIVersionInternal}

var (
	// SchemeBuilder collects the functions that add the internal kubeconfig
	// types to a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme registers the internal kubeconfig types with a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypeWithName(SchemeGroupVersion.WithKind("Config"), &Config{})
	return nil
}

// GetObjectKind lets Config act as its own schema.ObjectKind.
func (obj *Config) GetObjectKind() schema.ObjectKind { return obj }

// SetGroupVersionKind records gvk in the legacy Kind and APIVersion fields.
func (obj *Config) SetGroupVersionKind(gvk schema.GroupVersionKind) {
	obj.APIVersion, obj.Kind = gvk.ToAPIVersionAndKind()
}

// GroupVersionKind reads the group, version and kind back from the legacy
// Kind and APIVersion fields.
func (obj *Config) GroupVersionKind() schema.GroupVersionKind {
	return schema.FromAPIVersionAndKind(obj.APIVersion, obj.Kind)
}
