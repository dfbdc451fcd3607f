package websocket

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	gwebsocket "github.com/gorilla/websocket"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"

	restclient "github.com/kubeclient/client-go/rest"
)

// channelServer accepts websocket upgrades for serverProtocols and echoes
// each binary message back with its channel byte moved from 0 to 1, as a
// v5.channel.k8s.io exec of "cat" would.
func channelServer(t *testing.T, serverProtocols ...string) *httptest.Server {
	t.Helper()
	upgrader := gwebsocket.Upgrader{Subprotocols: serverProtocols}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer secret" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			json.NewEncoder(w).Encode(metav1.Status{ //nolint:errcheck
				TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status:   metav1.StatusFailure, Reason: metav1.StatusReasonForbidden, Code: http.StatusForbidden,
				Message: `pods "web" is forbidden: cannot create pods/exec`,
			})
			return
		}
		conn, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close() //nolint:errcheck
		for {
			mt, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			if mt == gwebsocket.BinaryMessage && len(data) > 0 && data[0] == 0 {
				data[0] = 1
				if conn.WriteMessage(gwebsocket.BinaryMessage, data) != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestNegotiateSubprotocol(t *testing.T) {
	tests := []struct {
		name    string
		server  []string
		offered []string
		want    string
		wantErr bool
	}{
		{name: "v5 preferred", server: []string{"v4.channel.k8s.io", "v5.channel.k8s.io"}, offered: []string{"v5.channel.k8s.io", "v4.channel.k8s.io"}, want: "v5.channel.k8s.io"},
		{name: "old server speaks v4", server: []string{"v4.channel.k8s.io"}, offered: []string{"v5.channel.k8s.io", "v4.channel.k8s.io"}, want: "v4.channel.k8s.io"},
		{name: "server picks nothing", server: []string{"v1.binary.k8s.io"}, offered: []string{"v5.channel.k8s.io"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := channelServer(t, tt.server...)
			rt, holder, err := RoundTripperFor(&restclient.Config{Host: srv.URL, BearerToken: "secret"})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/namespaces/default/pods/web/exec?command=cat", nil)
			conn, err := Negotiate(rt, holder, req, tt.offered...)
			if tt.wantErr {
				if err == nil || !httpstream.IsUpgradeFailure(err) {
					t.Fatalf("err = %v, want an upgrade failure", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Negotiate: %v", err)
			}
			defer conn.Close() //nolint:errcheck
			if conn.Subprotocol() != tt.want {
				t.Errorf("subprotocol = %q, want %q", conn.Subprotocol(), tt.want)
			}
			if holder.Connection() != conn {
				t.Error("holder does not expose the negotiated connection")
			}
			if err := conn.WriteMessage(gwebsocket.BinaryMessage, []byte("\x00ping")); err != nil {
				t.Fatal(err)
			}
			_, data, err := conn.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != "\x01ping" {
				t.Errorf("reply = %q, want channel 1 + ping", data)
			}
		})
	}
}

func TestRefusedUpgradeIsStatusError(t *testing.T) {
	srv := channelServer(t, "v5.channel.k8s.io")
	rt, holder, err := RoundTripperFor(&restclient.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/exec", nil)
	_, err = Negotiate(rt, holder, req, "v5.channel.k8s.io")
	if !httpstream.IsUpgradeFailure(err) {
		t.Fatalf("err = %v, want an upgrade failure", err)
	}
	var upgradeErr *httpstream.UpgradeFailureError
	if !errors.As(err, &upgradeErr) || !apierrors.IsForbidden(upgradeErr.Cause) {
		t.Errorf("err = %v, want a Forbidden StatusError inside", err)
	}
	if !strings.Contains(err.Error(), "cannot create pods/exec") {
		t.Errorf("err = %v, lost the server's message", err)
	}
}

func TestRefusedUpgradeWithPlainBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "websockets disabled", http.StatusBadRequest)
	}))
	defer srv.Close()
	rt := &RoundTripper{}
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	_, err := Negotiate(rt, rt, req, "v5.channel.k8s.io")
	if !httpstream.IsUpgradeFailure(err) || !strings.Contains(err.Error(), "websockets disabled") || !strings.Contains(err.Error(), "400") {
		t.Errorf("err = %v, want upgrade failure quoting status and body", err)
	}
}

func TestRoundTripperAccessors(t *testing.T) {
	rt, holder, err := RoundTripperFor(&restclient.Config{Host: "https://example.invalid", TLSClientConfig: restclient.TLSClientConfig{ServerName: "api.example"}})
	if err != nil {
		t.Fatal(err)
	}
	if rt == nil {
		t.Fatal("nil round tripper")
	}
	ws := holder.(*RoundTripper)
	if ws.TLSClientConfig() == nil || ws.TLSClientConfig().ServerName != "api.example" {
		t.Errorf("TLS config not carried over: %+v", ws.TLSClientConfig())
	}
	if holder.DataBufferSize() != 32*1024 {
		t.Errorf("DataBufferSize = %d", holder.DataBufferSize())
	}
	if holder.Connection() != nil {
		t.Error("connection before any round trip")
	}
	if _, err := ws.RoundTrip(&http.Request{URL: mustURL(t, "ftp://x")}); err == nil {
		t.Error("unsupported scheme accepted")
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
