package fake

import (
	"net/http"
	"net/url"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/util/flowcontrol"
)

// CreateHTTPClient returns an http.Client whose transport is roundTripper.
func CreateHTTPClient(roundTripper func(*http.Request) (*http.Response, error)) *http.Client {
	return &http.Client{Transport: roundTripperFunc(roundTripper)}
}

// roundTripperFunc is an http.RoundTripper made of a function.
type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) {
	return f(req)
}

// RESTClient builds real rest.Requests whose HTTP round trip is answered
// here: with Err, through Client, or with Resp, in that order of precedence.
// It is not safe for concurrent requests since it records the last one.
type RESTClient struct {
	NegotiatedSerializer runtime.NegotiatedSerializer
	GroupVersion         schema.GroupVersion
	VersionedAPIPath     string

	// Err, when set, fails every request before it is recorded in Req.
	Err error
	// Req is the last request sent.
	Req *http.Request
	// Client, when set, sends the requests instead of answering with Resp.
	Client *http.Client
	// Resp answers every request when neither Err nor Client is set.
	Resp *http.Response
}

var _ restclient.Interface = &RESTClient{}

// Get starts a GET request.
func (c *RESTClient) Get() *restclient.Request { return c.Verb("GET") }

// Put starts a PUT request.
func (c *RESTClient) Put() *restclient.Request { return c.Verb("PUT") }

// Patch starts a PATCH request whose body is of patch type pt.
func (c *RESTClient) Patch(pt types.PatchType) *restclient.Request {
	return c.Verb("PATCH").SetHeader("Content-Type", string(pt))
}

// Post starts a POST request.
func (c *RESTClient) Post() *restclient.Request { return c.Verb("POST") }

// Delete starts a DELETE request.
func (c *RESTClient) Delete() *restclient.Request { return c.Verb("DELETE") }

// Verb starts a request with the given method.
func (c *RESTClient) Verb(verb string) *restclient.Request {
	return c.Request().Verb(verb)
}

// APIVersion returns GroupVersion.
func (c *RESTClient) APIVersion() schema.GroupVersion { return c.GroupVersion }

// GetRateLimiter returns nil: the fake never throttles.
func (c *RESTClient) GetRateLimiter() flowcontrol.RateLimiter { return nil }

// Request starts a request against https://localhost with JSON content.
func (c *RESTClient) Request() *restclient.Request {
	content := restclient.ClientContentConfig{
		ContentType:  runtime.ContentTypeJSON,
		GroupVersion: c.GroupVersion,
		Negotiator:   runtime.NewClientNegotiator(c.NegotiatedSerializer, c.GroupVersion),
	}
	base := &url.URL{Scheme: "https", Host: "localhost"}
	return restclient.NewRequestWithClient(base, c.VersionedAPIPath, content, CreateHTTPClient(c.roundTrip))
}

func (c *RESTClient) roundTrip(req *http.Request) (*http.Response, error) {
	if c.Err != nil {
		return nil, c.Err
	}
	c.Req = req
	if c.Client != nil {
		return c.Client.Do(req)
	}
	return c.Resp, nil
}
