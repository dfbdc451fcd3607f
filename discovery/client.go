package discovery

import (
	"context"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/openapi"
	restclient "github.com/kubeclient/client-go/rest"
)

const (
	// AcceptV1 requests the legacy (unaggregated) discovery format.
	AcceptV1 = runtime.ContentTypeJSON
	// AcceptV2 requests aggregated discovery. Servers need the media type
	// parameters in the order g, v, as; responses are matched regardless of
	// order (see ContentTypeIsGVK).
	AcceptV2 = runtime.ContentTypeJSON + ";" + "g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	// AcceptV2NoPeer requests the "nopeer" profile of aggregated discovery:
	// only what the apiserver answering serves itself, without peers.
	AcceptV2NoPeer = runtime.ContentTypeJSON + ";" + "g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;profile=nopeer"

	// acceptAggregatedOrLegacy is the Accept header of a default client:
	// aggregated discovery, falling back to the legacy format.
	acceptAggregatedOrLegacy = AcceptV2 + "," + AcceptV1

	// discoveryTimeout bounds every request of a client built from a Config
	// that sets no timeout.
	discoveryTimeout = 32 * time.Second
	// discoveryBurst is the client-side rate limiter burst of a client built
	// from a Config that sets none: legacy discovery issues one request per
	// group-version at once.
	discoveryBurst = 300
)

// DiscoveryClient discovers the API groups, versions and resources of a
// server through a REST client. It is safe for concurrent use; its fields
// must not be changed while it is in use.
type DiscoveryClient struct {
	restClient restclient.Interface

	// LegacyPrefix is the path under which the core group lives, "/api".
	LegacyPrefix string
	// UseLegacyDiscovery restricts the client to the legacy (unaggregated)
	// discovery format.
	UseLegacyDiscovery bool
	// NoPeerDiscovery requests the "nopeer" profile of aggregated discovery,
	// describing only the apiserver that answers (useful to check that one
	// apiserver is ready to serve).
	NoPeerDiscovery bool
}

var (
	_ AggregatedDiscoveryInterface            = (*DiscoveryClient)(nil)
	_ AggregatedDiscoveryInterfaceWithContext = (*DiscoveryClient)(nil)
	_ DiscoveryInterfaces                     = (*DiscoveryClient)(nil)
)

// NewDiscoveryClient returns a DiscoveryClient sending its requests through
// c.
func NewDiscoveryClient(c restclient.Interface) *DiscoveryClient {
	return &DiscoveryClient{restClient: c, LegacyPrefix: "/api"}
}

// NewDiscoveryClientForConfig returns a DiscoveryClient for the server
// described by c, with an HTTP client built by rest.HTTPClientFor.
func NewDiscoveryClientForConfig(c *restclient.Config) (*DiscoveryClient, error) {
	config := *c
	withDiscoveryDefaults(&config)
	httpClient, err := restclient.HTTPClientFor(&config)
	if err != nil {
		return nil, err
	}
	return NewDiscoveryClientForConfigAndClient(&config, httpClient)
}

// NewDiscoveryClientForConfigAndClient returns a DiscoveryClient for the
// server described by c that sends its requests through httpClient, whose
// transport takes precedence over the one c describes.
func NewDiscoveryClientForConfigAndClient(c *restclient.Config, httpClient *http.Client) (*DiscoveryClient, error) {
	config := *c
	withDiscoveryDefaults(&config)
	rc, err := restclient.UnversionedRESTClientForConfigAndClient(&config, httpClient)
	if err != nil {
		return nil, err
	}
	return NewDiscoveryClient(rc), nil
}

// NewDiscoveryClientForConfigOrDie is NewDiscoveryClientForConfig that
// panics on error.
func NewDiscoveryClientForConfigOrDie(c *restclient.Config) *DiscoveryClient {
	client, err := NewDiscoveryClientForConfig(c)
	if err != nil {
		panic(err)
	}
	return client
}

// withDiscoveryDefaults points config at the server root and fills in what a
// discovery client needs: a timeout, a generous burst, a JSON decoder for
// the discovery types and a user agent.
func withDiscoveryDefaults(config *restclient.Config) {
	config.APIPath = ""
	config.GroupVersion = nil
	if config.Timeout == 0 {
		config.Timeout = discoveryTimeout
	}
	if config.Burst == 0 {
		config.Burst = discoveryBurst
	}
	decodeOnly := runtime.NoopEncoder{Decoder: discoveryCodecs.UniversalDecoder()}
	config.NegotiatedSerializer = serializer.NegotiatedSerializerWrapper(runtime.SerializerInfo{Serializer: decodeOnly})
	if config.UserAgent == "" {
		config.UserAgent = restclient.DefaultKubernetesUserAgent()
	}
}

// RESTClient returns the REST client the discovery client sends its requests
// through, or nil for a nil client.
func (d *DiscoveryClient) RESTClient() restclient.Interface {
	if d == nil {
		return nil
	}
	return d.restClient
}

// WithLegacy returns a copy of d restricted to the legacy discovery format.
//
// Prefer WithLegacyWithContext.
func (d *DiscoveryClient) WithLegacy() DiscoveryInterface {
	legacy := *d
	legacy.UseLegacyDiscovery = true
	return &legacy
}

// WithLegacyWithContext returns a copy of d restricted to the legacy
// discovery format.
func (d *DiscoveryClient) WithLegacyWithContext(context.Context) DiscoveryInterfaceWithContext {
	legacy := *d
	legacy.UseLegacyDiscovery = true
	return &legacy
}

// OpenAPIV3 returns a client for the server's OpenAPI v3 documents.
//
// Prefer OpenAPIV3WithContext.
func (d *DiscoveryClient) OpenAPIV3() openapi.Client {
	return openapi.NewClient(d.restClient)
}

// OpenAPIV3WithContext returns a client for the server's OpenAPI v3
// documents.
func (d *DiscoveryClient) OpenAPIV3WithContext(context.Context) openapi.ClientWithContext {
	return openapi.NewClientWithContext(d.restClient)
}
