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

// scaleRegistration is one version of Scale the converter knows.
type scaleRegistration struct {
	version     schema.GroupVersion
	addToScheme func(*runtime.Scheme) error
	// internal marks a hub version: no object is converted from it.
	internal bool
}

// knownScales lists the Scale versions in the order ScaleVersions reports
// them.
var knownScales = []scaleRegistration{
	{version: scaleautoscaling.SchemeGroupVersion, addToScheme: scaleautoscaling.AddToScheme},
	{version: scalescheme.SchemeGroupVersion, addToScheme: scalescheme.AddToScheme, internal: true},
	{version: scaleext.SchemeGroupVersion, addToScheme: scaleext.AddToScheme},
	{version: scaleextint.SchemeGroupVersion, addToScheme: scaleextint.AddToScheme, internal: true},
	{version: scaleappsint.SchemeGroupVersion, addToScheme: scaleappsint.AddToScheme, internal: true},
	{version: scaleappsv1beta1.SchemeGroupVersion, addToScheme: scaleappsv1beta1.AddToScheme},
	{version: scaleappsv1beta2.SchemeGroupVersion, addToScheme: scaleappsv1beta2.AddToScheme},
}

// NewScaleConverter returns a ScaleConverter knowing the autoscaling/v1,
// extensions/v1beta1, apps/v1beta1 and apps/v1beta2 Scales.
func NewScaleConverter() *ScaleConverter {
	scheme := runtime.NewScheme()
	var external []schema.GroupKind
	for _, known := range knownScales {
		utilruntime.Must(known.addToScheme(scheme))
		if !known.internal {
			external = append(external, known.version.WithKind("Scale").GroupKind())
		}
	}
	return &ScaleConverter{
		scheme:     scheme,
		codecs:     serializer.NewCodecFactory(scheme),
		toInternal: runtime.NewMultiGroupVersioner(scalescheme.SchemeGroupVersion, external...),
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
	versions := make([]schema.GroupVersion, len(knownScales))
	for i, known := range knownScales {
		versions[i] = known.version
	}
	return versions
}

// ConvertToVersion converts an external Scale to the Scale of outVersion.
func (c *ScaleConverter) ConvertToVersion(in runtime.Object, outVersion schema.GroupVersion) (runtime.Object, error) {
	internal, err := c.scheme.ConvertToVersion(in, c.toInternal)
	if err != nil {
		return nil, err
	}
	return c.scheme.ConvertToVersion(internal, outVersion)
}
