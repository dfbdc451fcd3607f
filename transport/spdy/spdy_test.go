package spdy

import (
	"encoding/json"
	"github.com/kubeclient/client-go/internal/streamadapt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	httpstreamspdy "k8s.io/apimachinery/pkg/util/httpstream/spdy"
	streamspdy "k8s.io/streaming/pkg/httpstream/spdy"

	restclient "github.com/kubeclient/client-go/rest"
)

// echoServer upgrades to SPDY after negotiating one of serverProtocols and
// echoes every stream back to the client.
func echoServer(t *testing.T, serverProtocols ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer secret" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure, Reason: metav1.StatusReasonUnauthorized, Code: 401, Message: "no token"}) //nolint:errcheck
			return
		}
		if _, err := httpstream.Handshake(r, w, serverProtocols); err != nil {
			return
		}
		conn := httpstreamspdy.NewResponseUpgrader().UpgradeResponse(w, r, func(s httpstream.Stream, _ <-chan struct{}) error {
			go func() {
				io.Copy(s, s) //nolint:errcheck
				s.Close()     //nolint:errcheck
			}()
			return nil
		})
		if conn == nil {
			return
		}
		<-conn.CloseChan()
	}))
	t.Cleanup(srv.Close)
	return srv
}

func roundTrip(t *testing.T, conn httpstream.Connection) {
	t.Helper()
	s, err := conn.CreateStream(http.Header{"Kind": []string{"echo"}})
	if err != nil {
		t.Fatalf("CreateStream: %v", err)
	}
	if _, err := s.Write([]byte("hello spdy")); err != nil {
		t.Fatalf("Write: %v", err)
	}
	s.Close() //nolint:errcheck
	got, err := io.ReadAll(s)
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if string(got) != "hello spdy" {
		t.Errorf("echo = %q, want %q", got, "hello spdy")
	}
}

func TestDialerNegotiatesProtocol(t *testing.T) {
	tests := []struct {
		name    string
		server  []string
		offered []string
		want    string
		wantErr string
	}{
		{name: "first choice", server: []string{"v4.channel.k8s.io"}, offered: []string{"v4.channel.k8s.io", "channel.k8s.io"}, want: "v4.channel.k8s.io"},
		{name: "fallback choice", server: []string{"v2.channel.k8s.io"}, offered: []string{"v4.channel.k8s.io", "v2.channel.k8s.io"}, want: "v2.channel.k8s.io"},
		{name: "no common protocol", server: []string{"v9"}, offered: []string{"v4.channel.k8s.io"}, wantErr: "unable to negotiate protocol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := echoServer(t, tt.server...)
			rt, upgrader, err := RoundTripperFor(&restclient.Config{Host: srv.URL, BearerToken: "secret"})
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse(srv.URL + "/exec")
			conn, protocol, err := NewDialer(upgrader, &http.Client{Transport: rt}, http.MethodPost, u).Dial(tt.offered...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer conn.Close() //nolint:errcheck
			if protocol != tt.want {
				t.Errorf("protocol = %q, want %q", protocol, tt.want)
			}
			roundTrip(t, conn)
		})
	}
}

func TestRefusedUpgradeCarriesStatus(t *testing.T) {
	srv := echoServer(t, "portforward.k8s.io")
	rt, upgrader, err := RoundTripperFor(&restclient.Config{Host: srv.URL}) // no token
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL, nil)
	_, _, err = Negotiate(upgrader, &http.Client{Transport: rt}, req, "portforward.k8s.io")
	if err == nil {
		t.Fatal("expected an error for a 401 answer")
	}
	if !apierrors.IsUnauthorized(err) && !strings.Contains(err.Error(), "no token") {
		t.Errorf("error %v does not carry the server's status", err)
	}
}

func TestStreamingVariants(t *testing.T) {
	srv := echoServer(t, "portforward.k8s.io")
	delegate, err := streamspdy.NewRoundTripperWithProxy(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	upgrader := NewUpgraderForStreaming(delegate)
	wrapped, err := restclient.HTTPWrappersForConfig(&restclient.Config{BearerToken: "secret"}, delegate)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: wrapped}
	u, _ := url.Parse(srv.URL)

	sconn, protocol, err := NewDialerForStreaming(upgrader, client, http.MethodPost, u).Dial("portforward.k8s.io")
	if err != nil {
		t.Fatalf("streaming Dial: %v", err)
	}
	if protocol != "portforward.k8s.io" {
		t.Errorf("protocol = %q", protocol)
	}
	roundTrip(t, streamadapt.FromStreaming(sconn))
	sconn.Close() //nolint:errcheck

	req, _ := http.NewRequest(http.MethodPost, srv.URL, nil)
	sconn, _, err = NegotiateStreaming(upgrader, client, req, "portforward.k8s.io")
	if err != nil {
		t.Fatalf("NegotiateStreaming: %v", err)
	}
	roundTrip(t, streamadapt.FromStreaming(sconn))
	sconn.Close() //nolint:errcheck
}

func TestRoundTripperForUsesProxy(t *testing.T) {
	target := echoServer(t, "portforward.k8s.io")
	proxied := make(chan string, 1)
	// A CONNECT proxy that records the tunnelled host and splices bytes.
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		proxied <- r.Host
		upstream, err := net.Dial("tcp", r.Host)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		client, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			upstream.Close() //nolint:errcheck
			return
		}
		client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")) //nolint:errcheck
		go func() { io.Copy(upstream, client); upstream.Close() }()         //nolint:errcheck
		io.Copy(client, upstream)                                           //nolint:errcheck
		client.Close()                                                      //nolint:errcheck
	}))
	defer proxy.Close()
	proxyURL, _ := url.Parse(proxy.URL)

	cfg := &restclient.Config{Host: target.URL, BearerToken: "secret", Proxy: http.ProxyURL(proxyURL)}
	rt, upgrader, err := RoundTripperFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(target.URL)
	conn, _, err := NewDialer(upgrader, &http.Client{Transport: rt}, http.MethodPost, u).Dial("portforward.k8s.io")
	if err != nil {
		t.Fatalf("Dial through proxy: %v", err)
	}
	defer conn.Close() //nolint:errcheck
	roundTrip(t, conn)
	if host := <-proxied; host != u.Host {
		t.Errorf("proxy tunnelled to %q, want %q", host, u.Host)
	}
}

func TestNilArguments(t *testing.T) {
	if _, _, err := RoundTripperFor(nil); err == nil {
		t.Error("RoundTripperFor(nil) should fail")
	}
	if _, _, err := Negotiate(nil, nil, nil); err == nil {
		t.Error("Negotiate(nil...) should fail")
	}
}
