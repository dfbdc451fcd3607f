package openapi

import (
	"context"
	"fmt"
	"net/url"
)

// ContentTypeOpenAPIV3PB is the media type of an OpenAPI v3 document encoded
// as protobuf.
const ContentTypeOpenAPIV3PB = "application/com.github.proto-openapi.spec.v3@v1.0+protobuf"

// GroupVersion is one OpenAPI v3 document listed by a Client.
//
// Prefer GroupVersionWithContext.
type GroupVersion interface {
	// Schema downloads the document encoded as contentType, for example
	// "application/json" or ContentTypeOpenAPIV3PB.
	Schema(contentType string) ([]byte, error)

	// ServerRelativeURL returns the path and query the document is fetched
	// from. It includes the document's hash, so it also serves as a cache key
	// that changes whenever the document does.
	ServerRelativeURL() string
}

// GroupVersionWithContext is GroupVersion with a context on every download.
type GroupVersionWithContext interface {
	// SchemaWithContext downloads the document encoded as contentType.
	SchemaWithContext(ctx context.Context, contentType string) ([]byte, error)

	// ServerRelativeURL returns the path and query the document is fetched
	// from, including the document's hash.
	ServerRelativeURL() string
}

// ToGroupVersionWithContext adapts a GroupVersion to GroupVersionWithContext.
// A GroupVersion that already implements it is returned unchanged.
func ToGroupVersionWithContext(gv GroupVersion) GroupVersionWithContext {
	switch gv := gv.(type) {
	case nil:
		return nil
	case GroupVersionWithContext:
		return gv
	default:
		return contextIgnoringGroupVersion{GroupVersion: gv}
	}
}

// contextIgnoringGroupVersion lifts a GroupVersion to GroupVersionWithContext.
type contextIgnoringGroupVersion struct {
	GroupVersion
}

func (gv contextIgnoringGroupVersion) SchemaWithContext(_ context.Context, contentType string) ([]byte, error) {
	return gv.Schema(contentType)
}

// restGroupVersion downloads one document through its client's REST client.
type restGroupVersion struct {
	client      *restClient
	relativeURL string
	// underBaseURL is true when relativeURL lives under /openapi/v3 and can be
	// requested relative to the client's base URL (keeping any path prefix);
	// otherwise it is requested verbatim as a request URI.
	underBaseURL bool
}

var (
	_ GroupVersion            = (*restGroupVersion)(nil)
	_ GroupVersionWithContext = (*restGroupVersion)(nil)
)

// Schema implements GroupVersion.
func (g *restGroupVersion) Schema(contentType string) ([]byte, error) {
	return g.SchemaWithContext(context.Background(), contentType)
}

// SchemaWithContext implements GroupVersionWithContext.
func (g *restGroupVersion) SchemaWithContext(ctx context.Context, contentType string) ([]byte, error) {
	if !g.underBaseURL {
		return g.client.rest.Get().
			RequestURI(g.relativeURL).
			SetHeader("Accept", contentType).
			Do(ctx).
			Raw()
	}
	u, err := url.Parse(g.relativeURL)
	if err != nil {
		return nil, fmt.Errorf("parsing OpenAPI v3 document URL %q: %w", g.relativeURL, err)
	}
	req := g.client.rest.Get().AbsPath(u.Path).SetHeader("Accept", contentType)
	for name, values := range u.Query() {
		for _, v := range values {
			req.Param(name, v)
		}
	}
	return req.Do(ctx).Raw()
}

// ServerRelativeURL implements GroupVersion.
func (g *restGroupVersion) ServerRelativeURL() string {
	return g.relativeURL
}
