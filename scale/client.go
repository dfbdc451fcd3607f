package scale

import (
	"context"
	"fmt"

	autoscaling "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/dynamic"
	restclient "github.com/kubeclient/client-go/rest"
)

var (
	// converter decodes and converts every Scale the client handles.
	converter = NewScaleConverter()

	// optionsVersion and optionsCodec encode Get/Update/PatchOptions as
	// query parameters, which are meta/v1 whatever group is addressed.
	optionsVersion = schema.GroupVersion{Version: "v1"}
	optionsCodec   = func() runtime.ParameterCodec {
		s := runtime.NewScheme()
		metav1.AddToGroupVersion(s, optionsVersion)
		return runtime.NewParameterCodec(s)
	}()
)

// scaleClient is the ScalesGetter returned by New.
type scaleClient struct {
	base         restclient.Interface
	mapper       PreferredResourceMapper
	pathResolver dynamic.APIPathResolverFunc
	kindResolver ScaleKindResolver
}

// NewForConfig returns a ScalesGetter talking to the server cfg describes;
// see New for the other arguments. cfg is not modified.
func NewForConfig(cfg *restclient.Config, mapper PreferredResourceMapper, resolver dynamic.APIPathResolverFunc, scaleKindResolver ScaleKindResolver) (ScalesGetter, error) {
	config := restclient.CopyConfig(cfg)
	// The client addresses absolute paths; an empty GroupVersion only
	// satisfies RESTClientFor.
	config.GroupVersion = &schema.GroupVersion{}
	config.NegotiatedSerializer = converter.Codecs().WithoutConversion()
	if config.UserAgent == "" {
		config.UserAgent = restclient.DefaultKubernetesUserAgent()
	}
	client, err := restclient.RESTClientFor(config)
	if err != nil {
		return nil, err
	}
	return New(client, mapper, resolver, scaleKindResolver), nil
}

// New returns a ScalesGetter sending its requests through baseClient, whose
// own GroupVersion is ignored. mapper completes the group-resources passed to
// Get and Update into a preferred version, resolver turns a group-version
// into its API root ("/api" or "/apis"; "" means "/api"; a nil resolver
// means dynamic.LegacyAPIPathResolverFunc), and
// scaleKindResolver tells which Scale version an update must be sent in.
func New(baseClient restclient.Interface, mapper PreferredResourceMapper, resolver dynamic.APIPathResolverFunc, scaleKindResolver ScaleKindResolver) ScalesGetter {
	return &scaleClient{
		base:         baseClient,
		mapper:       mapper,
		pathResolver: resolver,
		kindResolver: scaleKindResolver,
	}
}

// Scales implements ScalesGetter.
func (c *scaleClient) Scales(namespace string) ScaleInterface {
	return &namespacedScales{client: c, namespace: namespace}
}

// versionedPath returns the absolute path of groupVersion, such as
// "/apis/apps/v1".
func (c *scaleClient) versionedPath(groupVersion schema.GroupVersion) string {
	resolve := c.pathResolver
	if resolve == nil {
		resolve = dynamic.LegacyAPIPathResolverFunc
	}
	root := resolve(groupVersion.WithKind(""))
	if root == "" {
		root = "/api"
	}
	return restclient.DefaultVersionedAPIPath(root, groupVersion)
}

// resolve picks the preferred version of resource and returns its path and
// full name.
func (c *scaleClient) resolve(resource schema.GroupResource) (string, schema.GroupVersionResource, error) {
	if c.mapper == nil {
		return "", schema.GroupVersionResource{}, fmt.Errorf("no PreferredResourceMapper to find the version of %s", resource.String())
	}
	gvr, err := c.mapper.ResourceFor(resource.WithVersion(""))
	if err != nil {
		return "", gvr, fmt.Errorf("unable to get full preferred group-version-resource for %s: %w", resource.String(), err)
	}
	return c.versionedPath(gvr.GroupVersion()), gvr, nil
}

// namespacedScales is the ScaleInterface of one namespace.
type namespacedScales struct {
	client    *scaleClient
	namespace string
}

// Get implements ScaleInterface.
func (s *namespacedScales) Get(ctx context.Context, resource schema.GroupResource, name string, opts metav1.GetOptions) (*autoscaling.Scale, error) {
	path, gvr, err := s.client.resolve(resource)
	if err != nil {
		return nil, fmt.Errorf("unable to get client for %s: %w", resource.String(), err)
	}
	result := s.client.base.Get().
		AbsPath(path).
		NamespaceIfScoped(s.namespace, s.namespace != "").
		Resource(gvr.Resource).
		Name(name).
		SubResource("scale").
		SpecificallyVersionedParams(&opts, optionsCodec, optionsVersion).
		Do(ctx)
	return decodeScale(result)
}

// Update implements ScaleInterface. The scale is converted to the version
// the resource's scale subresource speaks before it is sent.
func (s *namespacedScales) Update(ctx context.Context, resource schema.GroupResource, scale *autoscaling.Scale, opts metav1.UpdateOptions) (*autoscaling.Scale, error) {
	if scale == nil {
		return nil, fmt.Errorf("scale update for %s: scale must not be nil", resource.String())
	}
	path, gvr, err := s.client.resolve(resource)
	if err != nil {
		return nil, fmt.Errorf("unable to get client for %s: %w", resource.String(), err)
	}
	if s.client.kindResolver == nil {
		return nil, fmt.Errorf("could not find proper group-version for scale subresource of %s: no ScaleKindResolver", gvr.String())
	}
	wanted, err := s.client.kindResolver.ScaleForResource(gvr)
	if err != nil {
		return nil, fmt.Errorf("could not find proper group-version for scale subresource of %s: %w", gvr.String(), err)
	}
	external, err := converter.ConvertToVersion(scale, wanted.GroupVersion())
	if err != nil {
		return nil, fmt.Errorf("could not convert scale update to external Scale: %w", err)
	}
	body, err := runtime.Encode(converter.Codecs().LegacyCodec(wanted.GroupVersion()), external)
	if err != nil {
		return nil, fmt.Errorf("could not encode scale update to external Scale: %w", err)
	}
	result := s.client.base.Put().
		AbsPath(path).
		NamespaceIfScoped(s.namespace, s.namespace != "").
		Resource(gvr.Resource).
		Name(scale.Name).
		SubResource("scale").
		SpecificallyVersionedParams(&opts, optionsCodec, optionsVersion).
		Body(body).
		Do(ctx)
	return decodeScale(result)
}

// Patch implements ScaleInterface. gvr is used as given, without mapping.
func (s *namespacedScales) Patch(ctx context.Context, gvr schema.GroupVersionResource, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions) (*autoscaling.Scale, error) {
	result := s.client.base.Patch(pt).
		AbsPath(s.client.versionedPath(gvr.GroupVersion())).
		NamespaceIfScoped(s.namespace, s.namespace != "").
		Resource(gvr.Resource).
		Name(name).
		SubResource("scale").
		SpecificallyVersionedParams(&opts, optionsCodec, optionsVersion).
		Body(data).
		Do(ctx)
	return decodeScale(result)
}

// decodeScale returns the error of result unchanged (so that callers can
// test it with the apierrors predicates), or decodes whichever Scale version
// the server sent and converts it to autoscaling/v1.
func decodeScale(result restclient.Result) (*autoscaling.Scale, error) {
	if err := result.Error(); err != nil {
		return nil, err
	}
	raw, err := result.Raw()
	if err != nil {
		return nil, err
	}
	decoded, err := runtime.Decode(converter.Codecs().UniversalDecoder(converter.ScaleVersions()...), raw)
	if err != nil {
		return nil, err
	}
	converted, err := converter.ConvertToVersion(decoded, autoscaling.SchemeGroupVersion)
	if err != nil {
		return nil, fmt.Errorf("received an object from a /scale endpoint which was not convertible to autoscaling Scale: %w", err)
	}
	out, ok := converted.(*autoscaling.Scale)
	if !ok {
		return nil, fmt.Errorf("received an object from a /scale endpoint which converted to %T, not an autoscaling/v1 Scale", converted)
	}
	return out, nil
}
