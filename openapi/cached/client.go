package cached

import (
	"context"
	"sync"

	"github.com/kubeclient/client-go/openapi"
)

// Client is an openapi client that remembers the first path listing it
// obtains (or the error it got) and hands out group-versions that remember
// their documents. It is safe for concurrent use.
type Client struct {
	delegate openapi.ClientWithContext

	// once guards the single listing; paths and err are written inside it
	// and only read after it completes.
	once  sync.Once
	paths map[string]openapi.GroupVersionWithContext
	err   error
}

var (
	_ openapi.Client            = (*Client)(nil)
	_ openapi.ClientWithContext = (*Client)(nil)
)

// NewClient returns a caching client in front of other.
//
// Prefer NewClientWithContext.
func NewClient(other openapi.Client) openapi.Client {
	return &Client{delegate: openapi.ToClientWithContext(other)}
}

// NewClientWithContext returns a caching client in front of other.
func NewClientWithContext(other openapi.ClientWithContext) *Client {
	return &Client{delegate: other}
}

// Paths returns the cached path listing.
//
// Prefer PathsWithContext.
func (c *Client) Paths() (map[string]openapi.GroupVersion, error) {
	paths, err := c.PathsWithContext(context.Background())
	legacy := make(map[string]openapi.GroupVersion, len(paths))
	for path, gv := range paths {
		legacy[path] = gv.(openapi.GroupVersion)
	}
	return legacy, err
}

// PathsWithContext returns the cached path listing, fetching it on the first
// call. A failed first fetch is cached too.
func (c *Client) PathsWithContext(ctx context.Context) (map[string]openapi.GroupVersionWithContext, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.once.Do(func() {
		fetched, err := c.delegate.PathsWithContext(ctx)
		if err != nil {
			c.err = err
			return
		}
		c.paths = make(map[string]openapi.GroupVersionWithContext, len(fetched))
		for path, gv := range fetched {
			c.paths[path] = &groupVersion{delegate: gv}
		}
	})
	return c.paths, c.err
}
