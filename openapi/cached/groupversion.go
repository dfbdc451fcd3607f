package cached

import (
	"context"
	"sync"

	"github.com/kubeclient/client-go/openapi"
)

// groupVersion caches one document per content type, including failures.
type groupVersion struct {
	delegate openapi.GroupVersionWithContext

	// mu guards docs and serializes downloads, so concurrent callers asking
	// for the same content type trigger a single request.
	mu   sync.Mutex
	docs map[string]download
}

// download is the remembered outcome of one Schema call.
type download struct {
	body []byte
	err  error
}

var (
	_ openapi.GroupVersion            = (*groupVersion)(nil)
	_ openapi.GroupVersionWithContext = (*groupVersion)(nil)
)

// Schema implements openapi.GroupVersion.
func (g *groupVersion) Schema(contentType string) ([]byte, error) {
	return g.SchemaWithContext(context.Background(), contentType)
}

// SchemaWithContext implements openapi.GroupVersionWithContext.
func (g *groupVersion) SchemaWithContext(ctx context.Context, contentType string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if d, ok := g.docs[contentType]; ok {
		return d.body, d.err
	}
	var d download
	d.body, d.err = g.delegate.SchemaWithContext(ctx, contentType)
	if g.docs == nil {
		g.docs = map[string]download{}
	}
	g.docs[contentType] = d
	return d.body, d.err
}

// ServerRelativeURL implements openapi.GroupVersion.
func (g *groupVersion) ServerRelativeURL() string {
	return g.delegate.ServerRelativeURL()
}
