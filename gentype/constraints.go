package gentype

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// objectWithMeta is satisfied by API objects: they are runtime.Objects and
// carry object metadata.
type objectWithMeta interface {
	runtime.Object
	metav1.Object
}

// namedObject is satisfied by apply configurations: comparable (so a nil
// configuration can be detected) and able to report the object name.
type namedObject interface {
	comparable
	GetName() *string
}
