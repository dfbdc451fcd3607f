package rest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestConfigTimeoutErrors: a request that outlives Config.Timeout fails
// with the error of net/http's client timeout, as client-go's does: a
// net.Error whose Timeout() is true, that errors.Is a deadline exceeded
// and not a cancellation. Its text is one of the forms net/http gives,
// which one depending on whether the client's timer or the request's
// deadline fires first (client-go's varies the same way from run to run).
//
// Each case runs in a synctest bubble over in-memory connections, so the
// server holds the request, or its body, whatever the machine's speed
// until the timeout passes on the bubble's clock.
func TestConfigTimeoutErrors(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("stall") == "body" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"kind":"PodList","items":[`))
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	})
	forms := []string{
		"(Client.Timeout exceeded while awaiting headers)",
		"context deadline exceeded",
		"(Client.Timeout or context cancellation while reading body)",
	}
	for _, tc := range []struct {
		name    string
		userAgt string
		do      func(c *RESTClient) error
		urlErr  bool // a *url.Error: the request got no response
	}{
		{"Do, timeout from the client", "", func(c *RESTClient) error {
			return c.Get().Resource("pods").Do(context.Background()).Error()
		}, true},
		{"Do, request timeout zero (a typed List)", "agent", func(c *RESTClient) error {
			return c.Get().Resource("pods").Timeout(0).Do(context.Background()).Error()
		}, true},
		{"DoRaw, body stalls", "agent", func(c *RESTClient) error {
			_, err := c.Get().Resource("pods").Param("stall", "body").Timeout(0).DoRaw(context.Background())
			return err
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				n, closeAll := newPipeNet(handler)
				defer closeAll()
				config := coreV1Config("http://pipe")
				config.Dial = n.DialContext
				config.Timeout = 50 * time.Millisecond
				config.UserAgent = tc.userAgt
				client, err := RESTClientFor(config)
				if err != nil {
					t.Fatal(err)
				}
				err = tc.do(client)
				if err == nil {
					t.Fatal("no error past the timeout")
				}
				var ne net.Error
				if !errors.As(err, &ne) || !ne.Timeout() {
					t.Errorf("%v: not a net.Error that is a timeout", err)
				}
				if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
					t.Errorf("%v: errors.Is deadline exceeded %v, canceled %v; want true, false",
						err, errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled))
				}
				var ue *url.Error
				if errors.As(err, &ue) != tc.urlErr {
					t.Errorf("%v: a *url.Error: %v, want %v", err, !tc.urlErr, tc.urlErr)
				}
				matched := false
				for _, f := range forms {
					matched = matched || strings.Contains(err.Error(), f)
				}
				if !matched {
					t.Errorf("%q is none of net/http's timeout errors", err)
				}
			})
		})
	}
}
