package v1

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SchemeGroupVersion is the version written into kubeconfig files
// ("apiVersion: v1"); the group is empty.
var SchemeGroupVersion = schema.GroupVersion{Group: "", Version: "v1"}

// SchemeBuilder collects the functions that register the v1 kubeconfig
// types, their conversions and their defaults.
var SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes, RegisterConversions, RegisterDefaults)

// AddToScheme registers the v1 kubeconfig types with a scheme.
var AddToScheme = SchemeBuilder.AddToScheme

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypeWithName(SchemeGroupVersion.WithKind("Config"), &Config{})
	return nil
}

// GetObjectKind lets Config act as its own schema.ObjectKind.
func (obj *Config) GetObjectKind() schema.ObjectKind { return obj }

// SetGroupVersionKind records gvk in the Kind and APIVersion fields.
func (obj *Config) SetGroupVersionKind(gvk schema.GroupVersionKind) {
	obj.APIVersion, obj.Kind = gvk.ToAPIVersionAndKind()
}

// GroupVersionKind reads the group, version and kind from the Kind and
// APIVersion fields.
func (obj *Config) GroupVersionKind() schema.GroupVersionKind {
	return schema.FromAPIVersionAndKind(obj.APIVersion, obj.Kind)
}
