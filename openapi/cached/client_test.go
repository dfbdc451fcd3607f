package cached_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/kubeclient/client-go/openapi"
	"github.com/kubeclient/client-go/openapi/cached"
)

// countingClient is an openapi.ClientWithContext that counts every call.
// mu guards the counters, which concurrent tests update.
type countingClient struct {
	mu        sync.Mutex
	listings  int
	downloads map[string]int // "path contentType" -> count
	fail      error
}

func (c *countingClient) PathsWithContext(context.Context) (map[string]openapi.GroupVersionWithContext, error) {
	c.mu.Lock()
	c.listings++
	c.mu.Unlock()
	if c.fail != nil {
		return nil, c.fail
	}
	return map[string]openapi.GroupVersionWithContext{
		"api/v1":       &countingGV{client: c, path: "api/v1"},
		"apis/apps/v1": &countingGV{client: c, path: "apis/apps/v1"},
	}, nil
}

func (c *countingClient) count(path, contentType string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.downloads[path+" "+contentType]
}

type countingGV struct {
	client *countingClient
	path   string
}

func (g *countingGV) SchemaWithContext(_ context.Context, contentType string) ([]byte, error) {
	g.client.mu.Lock()
	if g.client.downloads == nil {
		g.client.downloads = map[string]int{}
	}
	g.client.downloads[g.path+" "+contentType]++
	n := g.client.downloads[g.path+" "+contentType]
	g.client.mu.Unlock()
	if contentType == "application/yaml" {
		return nil, fmt.Errorf("406: %s not served", contentType)
	}
	return []byte(fmt.Sprintf("%s as %s, download %d", g.path, contentType, n)), nil
}

func (g *countingGV) ServerRelativeURL() string { return "/openapi/v3/" + g.path + "?hash=1" }

func TestCachesListingAndDocuments(t *testing.T) {
	delegate := &countingClient{}
	c := cached.NewClientWithContext(delegate)
	ctx := context.Background()

	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			paths, err := c.PathsWithContext(ctx)
			if err != nil {
				t.Errorf("PathsWithContext: %v", err)
				return
			}
			body, err := paths["apis/apps/v1"].SchemaWithContext(ctx, "application/json")
			if err != nil || string(body) != "apis/apps/v1 as application/json, download 1" {
				t.Errorf("Schema = %q, %v; want the first download", body, err)
			}
		}()
	}
	wg.Wait()
	if delegate.listings != 1 || delegate.count("apis/apps/v1", "application/json") != 1 {
		t.Errorf("listings = %d, downloads = %d; want 1 and 1", delegate.listings, delegate.count("apis/apps/v1", "application/json"))
	}

	paths, _ := c.Paths()
	gv := paths["apis/apps/v1"]
	if gv.ServerRelativeURL() != "/openapi/v3/apis/apps/v1?hash=1" {
		t.Errorf("ServerRelativeURL = %q", gv.ServerRelativeURL())
	}
	// Another content type is a separate cache entry.
	if body, _ := gv.Schema("application/com.github.proto-openapi.spec.v3@v1.0+protobuf"); string(body) != "apis/apps/v1 as application/com.github.proto-openapi.spec.v3@v1.0+protobuf, download 1" {
		t.Errorf("protobuf Schema = %q", body)
	}
	// Failures are cached too.
	for range 2 {
		if _, err := gv.Schema("application/yaml"); err == nil {
			t.Errorf("Schema(yaml) = nil error")
		}
	}
	if n := delegate.count("apis/apps/v1", "application/yaml"); n != 1 {
		t.Errorf("failed download attempted %d times, want 1", n)
	}
}

func TestCachesListingFailure(t *testing.T) {
	delegate := &countingClient{fail: errors.New("503 service unavailable")}
	c := cached.NewClient(openapi.Client(legacyClient{delegate}))
	for range 3 {
		if _, err := c.Paths(); err == nil || err.Error() != "503 service unavailable" {
			t.Errorf("Paths = %v, want the delegate's error", err)
		}
	}
	if delegate.listings != 1 {
		t.Errorf("listings = %d, want 1", delegate.listings)
	}
}

func TestCancelledContext(t *testing.T) {
	delegate := &countingClient{}
	c := cached.NewClientWithContext(delegate)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.PathsWithContext(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("PathsWithContext = %v, want context.Canceled", err)
	}
	if delegate.listings != 0 {
		t.Errorf("a cancelled call reached the delegate")
	}
	paths, _ := c.PathsWithContext(context.Background())
	if _, err := paths["api/v1"].SchemaWithContext(ctx, "application/json"); !errors.Is(err, context.Canceled) {
		t.Errorf("SchemaWithContext = %v, want context.Canceled", err)
	}
}

// legacyClient exposes a countingClient through the original openapi.Client.
type legacyClient struct{ c *countingClient }

func (l legacyClient) Paths() (map[string]openapi.GroupVersion, error) {
	paths, err := l.c.PathsWithContext(context.Background())
	out := map[string]openapi.GroupVersion{}
	for k := range paths {
		out[k] = nil
	}
	return out, err
}
