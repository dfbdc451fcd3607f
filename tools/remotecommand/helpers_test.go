package remotecommand

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/transport/spdy"
)

func spdyTransport(t *testing.T, cfg *restclient.Config) (http.RoundTripper, spdy.Upgrader) {
	t.Helper()
	rt, upgrader, err := spdy.RoundTripperFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rt, upgrader
}

func newServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func newPipe() (*io.PipeReader, *io.PipeWriter) { return io.Pipe() }

// testContext bounds a session so that a protocol bug fails the test
// instead of hanging it.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
