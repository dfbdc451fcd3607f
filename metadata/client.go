package metadata

import (
	"cmp"
	"net/http"

	metainternalversionscheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/internal/resourceclient"
	"github.com/kubeclient/client-go/rest"
)

// unusedAPIPath is the API path of the underlying RESTClient. Every request
// of this package sets an absolute path, so a URL containing it is a bug.
const unusedAPIPath = "/metadata-client-requests-use-absolute-paths"

// Client reads object metadata from any resource of an API server, as
// PartialObjectMetadata. It is safe for concurrent use.
type Client struct {
	client *rest.RESTClient
}

var _ Interface = &Client{}

// ConfigFor returns a copy of inConfig set up for the metadata client:
// protobuf preferred and JSON accepted, the meta.k8s.io serializers, and the
// default user agent when none is set.
func ConfigFor(inConfig *rest.Config) *rest.Config {
	config := rest.CopyConfig(inConfig)
	config.UserAgent = cmp.Or(config.UserAgent, rest.DefaultKubernetesUserAgent())
	config.NegotiatedSerializer = metainternalversionscheme.Codecs.WithoutConversion()
	config.ContentType, config.AcceptContentTypes = runtime.ContentTypeProtobuf, runtime.ContentTypeProtobuf+","+runtime.ContentTypeJSON
	return config
}

// NewForConfig returns a metadata client for inConfig, with an HTTP client
// built by rest.HTTPClientFor from the same configuration.
func NewForConfig(inConfig *rest.Config) (Interface, error) {
	return resourceclient.NewForConfig(ConfigFor(inConfig), NewForConfigAndClient)
}

// NewForConfigAndClient returns a metadata client for inConfig that sends
// its requests with h, whose transport wins over that of inConfig.
func NewForConfigAndClient(inConfig *rest.Config, h *http.Client) (Interface, error) {
	config := ConfigFor(inConfig)
	// The empty group version makes options encode as plain "v1" parameters.
	config.GroupVersion = &schema.GroupVersion{}
	config.APIPath = unusedAPIPath
	restClient, err := rest.RESTClientForConfigAndClient(config, h)
	if err != nil {
		return nil, err
	}
	return &Client{client: restClient}, nil
}

// NewForConfigOrDie is NewForConfig for configurations known to be valid:
// it panics on error.
func NewForConfigOrDie(c *rest.Config) Interface {
	return resourceclient.Must(NewForConfig(c))
}

// Resource returns a metadata client for resource, at cluster scope until
// narrowed with Namespace.
func (c *Client) Resource(resource schema.GroupVersionResource) Getter {
	return &resourceClient{client: c.client, scope: resourceclient.Scope{Resource: resource}}
}
