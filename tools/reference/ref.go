package reference

import (
	"errors"
	"fmt"
	"reflect"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Errors returned by GetReference.
var (
	// ErrNilObject is returned for a nil object.
	ErrNilObject = errors.New("can't reference a nil object")
)

// GetReference returns an ObjectReference to obj.
//
// The kind and API version come from obj's TypeMeta when set, otherwise
// from scheme, which must then know obj's Go type. Name, namespace, UID and
// resource version come from obj's metadata; for a list, only the resource
// version is set. An *v1.ObjectReference is returned unchanged.
func GetReference(scheme *runtime.Scheme, obj runtime.Object) (*v1.ObjectReference, error) {
	if isNil(obj) {
		return nil, ErrNilObject
	}
	if ref, ok := obj.(*v1.ObjectReference); ok {
		return ref, nil
	}

	// Objects have ObjectMeta; lists only have ListMeta.
	var common metav1.Common
	objectMeta, err := meta.Accessor(obj)
	if err == nil {
		common = objectMeta
	} else if common, err = meta.CommonAccessor(obj); err != nil {
		return nil, err
	}

	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Empty() {
		if scheme == nil {
			return nil, errors.New("scheme is required to look up gvk")
		}
		kinds, _, err := scheme.ObjectKinds(obj)
		if err != nil {
			return nil, err
		}
		if len(kinds) == 0 || kinds[0].Empty() {
			return nil, fmt.Errorf("unexpected gvks registered for object %T: %v", obj, kinds)
		}
		gvk = kinds[0]
	}

	ref := &v1.ObjectReference{
		Kind:            gvk.Kind,
		APIVersion:      gvk.GroupVersion().String(),
		ResourceVersion: common.GetResourceVersion(),
	}
	if objectMeta != nil {
		ref.Name = objectMeta.GetName()
		ref.Namespace = objectMeta.GetNamespace()
		ref.UID = objectMeta.GetUID()
	}
	return ref, nil
}

// GetPartialReference is GetReference with FieldPath set to fieldPath, to
// point at a part of the object (such as one container of a pod).
func GetPartialReference(scheme *runtime.Scheme, obj runtime.Object, fieldPath string) (*v1.ObjectReference, error) {
	ref, err := GetReference(scheme, obj)
	if err != nil {
		return nil, err
	}
	ref.FieldPath = fieldPath
	return ref, nil
}

// isNil reports whether obj is nil or a nil pointer.
func isNil(obj runtime.Object) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
