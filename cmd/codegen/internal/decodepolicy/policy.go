// Package decodepolicy names the fields that the generated decoders of
// both wire formats (protodecodegen, jsondecodegen) treat apart, so that
// the JSON and protobuf decoders of a type share the same values the same
// way. Fields are named by their Go type's package path, type name and
// field name.
package decodepolicy

// UniqueStrings lists string fields whose values rarely repeat between
// objects; they are not interned so they do not churn the intern table.
var UniqueStrings = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta.Name":            true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta.UID":             true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta.ResourceVersion": true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta.SelfLink":        true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ListMeta.ResourceVersion":   true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ListMeta.Continue":          true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ListMeta.SelfLink":          true,
	"k8s.io/api/core/v1.PodStatus.PodIP":                              true,
	"k8s.io/api/core/v1.PodIP.IP":                                     true,
	"k8s.io/api/core/v1.ContainerStatus.ContainerID":                  true,
}

// SharedStringMaps lists maps of strings that repeat whole between
// objects (the labels of pods of one owner): with a DecodeSharing, the
// decoders return one shared map for equal bytes.
var SharedStringMaps = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta.Labels":      true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta.Annotations": true,
}
