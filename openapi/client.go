package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kubeclient/client-go/rest"
)

// Client lists the OpenAPI v3 documents a server publishes, keyed by API path
// such as "api/v1" or "apis/apps/v1".
//
// Prefer ClientWithContext, which supports cancellation and contextual
// logging.
type Client interface {
	Paths() (map[string]GroupVersion, error)
}

// ClientWithContext is Client with a context on every call.
type ClientWithContext interface {
	PathsWithContext(ctx context.Context) (map[string]GroupVersionWithContext, error)
}

// ToClientWithContext adapts a Client to ClientWithContext. A Client that
// already implements ClientWithContext is returned unchanged; otherwise the
// context is ignored when calling it.
func ToClientWithContext(c Client) ClientWithContext {
	switch c := c.(type) {
	case nil:
		return nil
	case ClientWithContext:
		return c
	default:
		return contextIgnoringClient{legacy: c}
	}
}

// contextIgnoringClient lifts a Client to ClientWithContext.
type contextIgnoringClient struct {
	legacy Client
}

func (c contextIgnoringClient) PathsWithContext(ctx context.Context) (map[string]GroupVersionWithContext, error) {
	paths, err := c.legacy.Paths()
	lifted := make(map[string]GroupVersionWithContext, len(paths))
	for path, gv := range paths {
		lifted[path] = ToGroupVersionWithContext(gv)
	}
	return lifted, err
}

// discoveryDocument is the body served at /openapi/v3 (the same wire format
// as k8s.io/kube-openapi/pkg/handler3.OpenAPIV3Discovery, declared here so
// that this package does not pull in the server-side handler's dependencies).
type discoveryDocument struct {
	Paths map[string]discoveryEntry `json:"paths"`
}

// discoveryEntry locates one group-version document.
type discoveryEntry struct {
	ServerRelativeURL string `json:"serverRelativeURL"`
}

// restClient is the Client backed by a REST client talking to a server.
type restClient struct {
	rest rest.Interface
}

var (
	_ Client            = (*restClient)(nil)
	_ ClientWithContext = (*restClient)(nil)
)

// NewClient returns a Client that reads /openapi/v3 through restClient.
//
// Prefer NewClientWithContext.
func NewClient(rc rest.Interface) Client {
	return &restClient{rest: rc}
}

// NewClientWithContext returns a ClientWithContext that reads /openapi/v3
// through restClient.
func NewClientWithContext(rc rest.Interface) ClientWithContext {
	return &restClient{rest: rc}
}

// Paths implements Client.
func (c *restClient) Paths() (map[string]GroupVersion, error) {
	paths, err := c.PathsWithContext(context.Background())
	legacy := make(map[string]GroupVersion, len(paths))
	for path, gv := range paths {
		legacy[path] = gv.(GroupVersion)
	}
	return legacy, err
}

// PathsWithContext implements ClientWithContext: it downloads the discovery
// document at /openapi/v3 and returns one GroupVersion per listed path.
func (c *restClient) PathsWithContext(ctx context.Context) (map[string]GroupVersionWithContext, error) {
	body, err := c.rest.Get().AbsPath("/openapi/v3").Do(ctx).Raw()
	if err != nil {
		return nil, err
	}
	var listing discoveryDocument
	if err := json.Unmarshal(body, &listing); err != nil {
		return nil, fmt.Errorf("decoding the OpenAPI v3 discovery document from /openapi/v3: %w", err)
	}

	// The server returns URLs relative to its own root. When the client's base
	// URL carries a path prefix (a proxy, say) and the server echoed it, strip
	// it so the URL can be replayed through the client, which adds it again.
	basePrefix := strings.TrimSuffix(c.rest.Get().AbsPath("/").URL().Path, "/")
	result := make(map[string]GroupVersionWithContext, len(listing.Paths))
	for path, entry := range listing.Paths {
		entry.ServerRelativeURL = strings.TrimPrefix(entry.ServerRelativeURL, basePrefix)
		result[path] = &restGroupVersion{
			client:       c,
			relativeURL:  entry.ServerRelativeURL,
			underBaseURL: strings.HasPrefix(entry.ServerRelativeURL, "/openapi/v3"),
		}
	}
	return result, nil
}
