package rest

import (
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/tools/metrics"
	"github.com/kubeclient/client-go/util/flowcontrol"
)

// Interface is the set of request constructors shared by RESTClient and its
// fakes.
type Interface interface {
	GetRateLimiter() flowcontrol.RateLimiter
	Verb(verb string) *Request
	Post() *Request
	Put() *Request
	Patch(pt types.PatchType) *Request
	Get() *Request
	Delete() *Request
	APIVersion() schema.GroupVersion
}

// ClientContentConfig is the content negotiation setup of a RESTClient.
type ClientContentConfig struct {
	// AcceptContentTypes is the Accept header to send; when empty the
	// ContentType is used.
	AcceptContentTypes string
	// ContentType is the media type of request bodies and the default
	// Accept header; empty means "application/json".
	ContentType string
	// GroupVersion is the API group version of the client, also the
	// default version of VersionedParams. Required for NewRESTClient.
	GroupVersion schema.GroupVersion
	// Negotiator finds encoders and decoders by media type.
	Negotiator runtime.ClientNegotiator
}

// HTTPClient is the part of *http.Client a Request needs.
type HTTPClient interface {
	Do(req *http.Request) (*http.Response, error)
}

// RESTClient sends requests that follow the Kubernetes API conventions to
// the resources under one base URL and versioned API path. Responses are
// decoded API objects, and failures are metav1.Status objects turned into
// errors.
//
// Most programs use a typed clientset built on top of it.
type RESTClient struct {
	// base is the server URL, always ending in "/" and without query.
	base *url.URL
	// versionedAPIPath is the path of the API group version below base.
	versionedAPIPath string

	// content yields the negotiation settings for each new request.
	content *contentConfigProvider

	// newBackoff returns the backoff manager of a new request.
	newBackoff func() BackoffManagerWithContext

	// rateLimiter throttles every request of this client; nil means none.
	rateLimiter flowcontrol.RateLimiter

	// warningHandler receives the warnings of this client's responses; nil
	// means the process default.
	warningHandler WarningHandlerWithContext

	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
}

// NewRESTClient returns a RESTClient for the API at baseURL plus
// versionedAPIPath. rateLimiter may be nil (no throttling), and so may client
// (http.DefaultClient).
func NewRESTClient(baseURL *url.URL, versionedAPIPath string, config ClientContentConfig, rateLimiter flowcontrol.RateLimiter, client *http.Client) (*RESTClient, error) {
	metrics.EnsureRegistered()

	// Requests resolve their paths below base, which therefore ends in a
	// slash and carries no query or fragment.
	base := *baseURL
	base.Path = strings.TrimSuffix(base.Path, "/") + "/"
	base.RawQuery, base.Fragment = "", ""

	c := &RESTClient{base: &base, versionedAPIPath: versionedAPIPath, rateLimiter: rateLimiter, Client: client}
	c.content = &contentConfigProvider{base: adjustContentConfigForCBOR(config)}
	c.newBackoff = backoffFromEnvironment
	return c, nil
}

// GetRateLimiter returns the client's rate limiter; nil for a nil client.
func (c *RESTClient) GetRateLimiter() flowcontrol.RateLimiter {
	if c == nil {
		return nil
	}
	return c.rateLimiter
}

// Verb starts a request with the given HTTP method:
//
//	err := c.Verb("GET").Resource("pods").Namespace("default").Do(ctx).Into(&list)
func (c *RESTClient) Verb(verb string) *Request {
	return NewRequest(c).Verb(verb)
}

// Post starts a POST request.
func (c *RESTClient) Post() *Request { return c.Verb("POST") }

// Put starts a PUT request.
func (c *RESTClient) Put() *Request { return c.Verb("PUT") }

// Patch starts a PATCH request whose body is of patch type pt.
func (c *RESTClient) Patch(pt types.PatchType) *Request {
	return c.Verb("PATCH").SetHeader("Content-Type", string(pt))
}

// Get starts a GET request.
func (c *RESTClient) Get() *Request { return c.Verb("GET") }

// Delete starts a DELETE request.
func (c *RESTClient) Delete() *Request { return c.Verb("DELETE") }

// APIVersion returns the API group version of the client.
func (c *RESTClient) APIVersion() schema.GroupVersion {
	cfg, _ := c.content.forNewRequest()
	return cfg.GroupVersion
}

// contentConfigProvider hands each new request its content settings. When
// CBOR is allowed and a server answers a CBOR request with 415 Unsupported
// Media Type, it switches later requests of the client back to JSON.
type contentConfigProvider struct {
	base ClientContentConfig

	// cborRejected becomes true, for good, after a 415 to a CBOR request.
	cborRejected atomic.Bool
}

// forNewRequest returns the settings for a new request and whether its
// content type was defaulted rather than configured.
//
// A nil provider (a RESTClient not made by NewRESTClient) yields JSON.
func (p *contentConfigProvider) forNewRequest() (ClientContentConfig, bool) {
	var cfg ClientContentConfig
	if p != nil {
		cfg = p.base
	}
	defaulted := cfg.ContentType == ""
	if defaulted {
		cfg.ContentType = runtime.ContentTypeJSON
	}
	if !cborAllowed() {
		return cfg, defaulted
	}
	if defaulted && cborPreferred() {
		cfg.ContentType = runtime.ContentTypeCBOR
	}
	if p != nil && p.cborRejected.Load() {
		if mt, _, _ := mime.ParseMediaType(cfg.ContentType); mt == runtime.ContentTypeCBOR {
			cfg.ContentType = runtime.ContentTypeJSON
		}
	}
	return cfg, defaulted
}

// sawUnsupportedMediaType records a 415 response to a request sent with
// the given Content-Type.
func (p *contentConfigProvider) sawUnsupportedMediaType(requestContentType string) {
	if p == nil || !cborAllowed() {
		return
	}
	mt, _, _ := mime.ParseMediaType(requestContentType)
	if mt == runtime.ContentTypeCBOR || mt == string(types.ApplyCBORPatchType) {
		p.cborRejected.Store(true)
	}
}
