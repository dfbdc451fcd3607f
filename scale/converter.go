package scale

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	scalescheme "github.com/kubeclient/client-go/scale/scheme"
	scaleappsint "github.com/kubeclient/client-go/scale/scheme/appsint"
	scaleappsv1beta1 "github.com/kubeclient/client-go/scale/scheme/appsv1beta1"
	scaleappsv1beta2 "github.com/kubeclient/client-go/scale/scheme/appsv1beta2"
	scaleautoscaling "github.com/kubeclient/client-go/scale/scheme/autoscalingv1"
	scaleextint "github.com/kubeclient/client-go/scale/scheme/extensionsint"
	scaleext "github.com/kubeclient/client-go/scale/scheme/extensionsv1beta1"
)

// ScaleConverter converts between the external Scale versions by way of the
// internal scheme.Scale.
type ScaleConverter struct {
	scheme *runtime.Scheme
	codecs serializer.CodecFactory
	// toInternal maps every known Scale kind to the internal Scale.
	toInternal runtime.GroupVersioner
}

// NewScaleConverter returns a ScaleConverter knowing the autoscaling/v1,
// extensions/v1beta1, apps/v1beta1 and apps/v1beta2 Scales.
func NewScaleConverter() *ScaleConverter {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		scaleautoscaling.AddToScheme,
		scalescheme.AddToScheme,
		scaleext.AddToScheme,
		scaleextint.AddToScheme,
		scaleappsint.AddToScheme,
		scaleappsv1beta1.AddToScheme,
		scaleappsv1beta2.AddToScheme,
	} {
		utilruntime.Must(add(s))
	}
	return &ScaleConverter{
		scheme: s,
		codecs: serializer.NewCodecFactory(s),
		toInternal: runtime.NewMultiGroupVersioner(
			scalescheme.SchemeGroupVersion,
			schema.GroupKind{Group: scaleext.GroupName, Kind: "Scale"},
			schema.GroupKind{Group: scaleautoscaling.GroupName, Kind: "Scale"},
			schema.GroupKind{Group: scaleappsv1beta1.GroupName, Kind: "Scale"},
			schema.GroupKind{Group: scaleappsv1beta2.GroupName, Kind: "Scale"},
		),
	}
}

// Scheme returns the scheme holding the Scale types and conversions.
func (c *ScaleConverter) Scheme() *runtime.Scheme {
	return c.scheme
}

// Codecs returns the codec factory over Scheme.
func (c *ScaleConverter) Codecs() serializer.CodecFactory {
	return c.codecs
}

// ScaleVersions returns the group-versions, external and internal, that the
// converter registers a Scale under.
func (c *ScaleConverter) ScaleVersions() []schema.GroupVersion {
	return []schema.GroupVersion{
		scaleautoscaling.SchemeGroupVersion,
		scalescheme.SchemeGroupVersion,
		scaleext.SchemeGroupVersion,
		scaleextint.SchemeGroupVersion,
		scaleappsint.SchemeGroupVersion,
		scaleappsv1beta1.SchemeGroupVersion,
		scaleappsv1beta2.SchemeGroupVersion,
	}
}

// ConvertToVersion converts an external Scale to the Scale of outVersion.
func (c *ScaleConverter) ConvertToVersion(in runtime.Object, outVersion schema.GroupVersion) (runtime.Object, error) {
	internal, err := c.scheme.ConvertToVersion(in, c.toInternal)
	if err != nil {
		return nil, err
	}
	return c.scheme.ConvertToVersion(internal, outVersion)
}
