package cache

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// ObjectName is a reference to an object of some implicit kind.
type ObjectName struct {
	Namespace string
	Name      string
}

// NewObjectName returns the ObjectName with the given namespace and name.
func NewObjectName(namespace, name string) ObjectName {
	return ObjectName{namespace, name}
}

// Parts returns the namespace and name, undoing NewObjectName.
func (objName ObjectName) Parts() (namespace, name string) {
	return objName.Namespace, objName.Name
}

// String encodes the name as "namespace/name", or just "name" when the
// namespace is empty; this is the same encoding MetaNamespaceKeyFunc uses.
func (objName ObjectName) String() string {
	if objName.Namespace != "" {
		return objName.Namespace + "/" + objName.Name
	}
	return objName.Name
}

// ParseObjectName decodes a string produced by ObjectName.String.
func ParseObjectName(str string) (ObjectName, error) {
	namespace, name, err := SplitMetaNamespaceKey(str)
	return ObjectName{namespace, name}, err
}

// AsNamespacedName converts the name into a types.NamespacedName.
func (objName ObjectName) AsNamespacedName() types.NamespacedName {
	return types.NamespacedName{Namespace: objName.Namespace, Name: objName.Name}
}

// NamespacedNameAsObjectName converts a types.NamespacedName into an ObjectName.
func NamespacedNameAsObjectName(nn types.NamespacedName) ObjectName {
	return ObjectName{Namespace: nn.Namespace, Name: nn.Name}
}

// MetaObjectToName returns the ObjectName of obj.
func MetaObjectToName(obj metav1.Object) ObjectName {
	return NewObjectName(obj.GetNamespace(), obj.GetName())
}

// ObjectToName returns the ObjectName of obj when obj has object metadata.
func ObjectToName(obj interface{}) (ObjectName, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ObjectName{}, fmt.Errorf("object has no meta: %v", err)
	}
	return MetaObjectToName(m), nil
}

// DeletionHandlingObjectToName is ObjectToName that also understands
// DeletedFinalStateUnknown tombstones, whose key it parses.
func DeletionHandlingObjectToName(obj interface{}) (ObjectName, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return ParseObjectName(d.Key)
	}
	return ObjectToName(obj)
}

// SplitMetaNamespaceKey splits a key made by MetaNamespaceKeyFunc back into
// namespace and name.
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	first := strings.IndexByte(key, '/')
	switch {
	case first < 0:
		return "", key, nil
	case strings.IndexByte(key[first+1:], '/') < 0:
		return key[:first], key[first+1:], nil
	}
	return "", "", fmt.Errorf("unexpected key format: %q", key)
}
