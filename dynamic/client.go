package dynamic

import (
	"net/http"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/features"
	"github.com/kubeclient/client-go/internal/resourceclient"
	"github.com/kubeclient/client-go/rest"
)

// unusedAPIPath is given to the underlying RESTClient as its API path. Every
// request of the dynamic client sets an absolute path, so a request that
// shows this value in its URL points at a bug.
const unusedAPIPath = "/dynamic-client-requests-use-absolute-paths"

// DynamicClient talks to any resource of an API server with unstructured
// objects. Create one with NewForConfig, NewForConfigAndClient or New; it is
// safe for concurrent use.
type DynamicClient struct {
	client rest.Interface
}

var _ Interface = &DynamicClient{}

// ConfigFor returns a copy of inConfig set up for the dynamic client: JSON
// request and response bodies (CBOR accepted, and preferred, when the
// ClientsAllowCBOR and ClientsPreferCBOR feature gates are on), a serializer
// that decodes any kind into unstructured objects, and the default user agent
// when none is set.
func ConfigFor(inConfig *rest.Config) *rest.Config {
	config := rest.CopyConfig(inConfig)
	config.ContentType = "application/json"
	config.AcceptContentTypes = "application/json"
	gates := features.FeatureGates()
	if gates.Enabled(features.ClientsAllowCBOR) {
		config.AcceptContentTypes = "application/json;q=0.9,application/cbor;q=1"
		if gates.Enabled(features.ClientsPreferCBOR) {
			config.ContentType = "application/cbor"
		}
	}
	config.NegotiatedSerializer = newWireSerializers()
	if config.UserAgent == "" {
		config.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	return config
}

// New returns a DynamicClient that sends its requests through c. c must
// decode responses into unstructured objects, as a client built from
// ConfigFor does.
func New(c rest.Interface) *DynamicClient {
	return &DynamicClient{client: c}
}

// NewForConfig returns a DynamicClient for inConfig, with an HTTP client
// built by rest.HTTPClientFor from the same configuration.
func NewForConfig(inConfig *rest.Config) (*DynamicClient, error) {
	return resourceclient.NewForConfig(ConfigFor(inConfig), NewForConfigAndClient)
}

// NewForConfigAndClient returns a DynamicClient for inConfig that sends its
// requests with h. The transport of h wins over the transport settings of
// inConfig, so several clients can share one connection pool.
func NewForConfigAndClient(inConfig *rest.Config, h *http.Client) (*DynamicClient, error) {
	config := ConfigFor(inConfig)
	config.GroupVersion = nil
	config.APIPath = unusedAPIPath
	restClient, err := rest.UnversionedRESTClientForConfigAndClient(config, h)
	if err != nil {
		return nil, err
	}
	return &DynamicClient{client: restClient}, nil
}

// NewForConfigOrDie is NewForConfig for configurations known to be valid:
// it panics on error.
func NewForConfigOrDie(c *rest.Config) *DynamicClient {
	return resourceclient.Must(NewForConfig(c))
}

// Resource returns a client for resource, at cluster scope until narrowed
// with Namespace.
func (c *DynamicClient) Resource(resource schema.GroupVersionResource) NamespaceableResourceInterface {
	return &resourceClient{client: c.client, scope: resourceclient.Scope{Resource: resource}}
}
