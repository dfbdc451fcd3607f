package portforward

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/kubeclient/client-go/internal/streamadapt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	gwebsocket "github.com/gorilla/websocket"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	httpstreamspdy "k8s.io/apimachinery/pkg/util/httpstream/spdy"
	portforwardconsts "k8s.io/apimachinery/pkg/util/portforward"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/transport/spdy"
)

// pod plays the kubelet side of port forwarding: every data stream is
// echoed with the remote port prefixed; port 9999 reports an error instead.
type pod struct {
	mu    sync.Mutex
	conns []httpstream.Connection
	// connected, when set, receives each new connection's arrival.
	connected chan struct{}
}

func (p *pod) newStream(s httpstream.Stream, _ <-chan struct{}) error {
	port := s.Headers().Get(v1.PortHeader)
	switch s.Headers().Get(v1.StreamType) {
	case v1.StreamTypeError:
		go func() {
			if port == "9999" {
				fmt.Fprintf(s, "failed to connect to localhost:%s inside namespace", port)
			}
			s.Close() //nolint:errcheck
		}()
	case v1.StreamTypeData:
		go func() {
			if port != "9999" {
				data, _ := io.ReadAll(s)
				fmt.Fprintf(s, "%s:%s", port, data)
			}
			s.Close() //nolint:errcheck
		}()
	}
	return nil
}

func (p *pod) serve(conn httpstream.Connection) {
	p.mu.Lock()
	p.conns = append(p.conns, conn)
	p.mu.Unlock()
	if p.connected != nil {
		p.connected <- struct{}{}
	}
	<-conn.CloseChan()
}

// drop closes every connection, as a kubelet restart would.
func (p *pod) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close() //nolint:errcheck
	}
}

func spdyPodServer(t *testing.T, p *pod) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gwebsocket.IsWebSocketUpgrade(r) {
			http.Error(w, "no websockets here", http.StatusBadRequest)
			return
		}
		if _, err := httpstream.Handshake(r, w, []string{PortForwardProtocolV1Name}); err != nil {
			return
		}
		if conn := httpstreamspdy.NewResponseUpgrader().UpgradeResponse(w, r, p.newStream); conn != nil {
			p.serve(conn)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// tunnelPodServer speaks SPDY inside a websocket ("SPDY/3.1+portforward.k8s.io").
func tunnelPodServer(t *testing.T, p *pod) *httptest.Server {
	t.Helper()
	upgrader := gwebsocket.Upgrader{Subprotocols: []string{portforwardconsts.WebsocketsSPDYTunnelingPortForwardV1}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		conn, err := httpstreamspdy.NewServerConnection(NewTunnelingConnection("server", ws), p.newStream)
		if err != nil {
			ws.Close() //nolint:errcheck
			return
		}
		p.serve(conn)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func spdyDialer(t *testing.T, serverURL string) httpstream.Dialer {
	t.Helper()
	rt, upgrader, err := spdy.RoundTripperFor(&restclient.Config{Host: serverURL})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(serverURL + "/api/v1/namespaces/default/pods/web/portforward")
	return spdy.NewDialer(upgrader, &http.Client{Transport: rt}, http.MethodPost, u)
}

// forward starts pf and waits until it is listening.
func forward(t *testing.T, pf *PortForwarder) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- pf.ForwardPorts() }()
	select {
	case <-pf.Ready:
	case err := <-done:
		t.Fatalf("ForwardPorts ended before ready: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("port forwarder never became ready")
	}
	return done
}

func exchange(t *testing.T, port uint16, payload string) string {
	t.Helper()
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close() //nolint:errcheck
	if _, err := conn.Write([]byte(payload)); err != nil {
		t.Fatal(err)
	}
	conn.(*net.TCPConn).CloseWrite() //nolint:errcheck
	got, _ := io.ReadAll(conn)
	return string(got)
}

func TestForwardPorts(t *testing.T) {
	tests := []struct {
		name   string
		dialer func(t *testing.T, p *pod) httpstream.Dialer
	}{
		{"spdy", func(t *testing.T, p *pod) httpstream.Dialer { return spdyDialer(t, spdyPodServer(t, p).URL) }},
		{"spdy over websocket", func(t *testing.T, p *pod) httpstream.Dialer {
			srv := tunnelPodServer(t, p)
			u, _ := url.Parse(srv.URL + "/portforward")
			d, err := NewSPDYOverWebsocketDialer(u, &restclient.Config{Host: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			return d
		}},
		{"fallback from websocket to spdy", func(t *testing.T, p *pod) httpstream.Dialer {
			srv := spdyPodServer(t, p)
			u, _ := url.Parse(srv.URL + "/portforward")
			tunnel, err := NewSPDYOverWebsocketDialer(u, &restclient.Config{Host: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			return NewFallbackDialer(tunnel, spdyDialer(t, srv.URL), httpstream.IsUpgradeFailure)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &pod{}
			stop, ready := make(chan struct{}), make(chan struct{})
			out, errOut := &syncWriter{w: &bytes.Buffer{}}, &syncWriter{w: &bytes.Buffer{}}
			pf, err := New(tt.dialer(t, p), []string{":8080", "0:9999"}, stop, ready, out, errOut)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pf.GetPorts(); err == nil {
				t.Error("GetPorts succeeded before Ready")
			}
			done := forward(t, pf)
			ports, err := pf.GetPorts()
			if err != nil {
				t.Fatal(err)
			}
			if len(ports) != 2 || ports[0].Remote != 8080 || ports[0].Local == 0 || ports[1].Remote != 9999 {
				t.Fatalf("ports = %+v", ports)
			}
			for i := 0; i < 3; i++ {
				if got, want := exchange(t, ports[0].Local, fmt.Sprintf("req-%d", i)), fmt.Sprintf("8080:req-%d", i); got != want {
					t.Errorf("reply = %q, want %q", got, want)
				}
			}
			if got := exchange(t, ports[1].Local, "x"); got != "" {
				t.Errorf("failing port replied %q", got)
			}
			close(stop)
			if err := <-done; err != nil {
				t.Errorf("ForwardPorts = %v, want nil after stop", err)
			}
			if _, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", ports[0].Local)); err == nil {
				t.Error("listener still open after stop")
			}
			if !strings.Contains(errOut.String(), "failed to connect to localhost:9999") {
				t.Errorf("errOut = %q, want the pod's error", errOut.String())
			}
			if !strings.Contains(out.String(), "-> 8080") {
				t.Errorf("out = %q", out.String())
			}
		})
	}
}

func TestLostConnectionToPod(t *testing.T) {
	p := &pod{connected: make(chan struct{}, 1)}
	srv := spdyPodServer(t, p)
	ready := make(chan struct{})
	pf, err := NewOnAddresses(spdyDialer(t, srv.URL), []string{"127.0.0.1"}, []string{"0:80"}, make(chan struct{}), ready, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := forward(t, pf)
	<-p.connected
	p.drop()
	select {
	case err := <-done:
		if !errors.Is(err, ErrLostConnectionToPod) {
			t.Errorf("err = %v, want ErrLostConnectionToPod", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ForwardPorts did not notice the lost connection")
	}
}

func TestConstructorErrors(t *testing.T) {
	d := NewFallbackDialer(nil, nil, nil)
	tests := []struct {
		name      string
		addresses []string
		ports     []string
		wantErr   string
	}{
		{"no ports", []string{"localhost"}, nil, "at least 1 port"},
		{"no addresses", nil, []string{"80"}, "at least 1 address"},
		{"bad port", []string{"localhost"}, []string{"http"}, `"http"`},
		{"remote zero", []string{"localhost"}, []string{"8080:0"}, "remote port must be > 0"},
		{"too many colons", []string{"localhost"}, []string{"1:2:3"}, "invalid port format"},
		{"bad address", []string{"example.com"}, []string{"80"}, "neither an IP address nor localhost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewOnAddresses(d, tt.addresses, tt.ports, nil, nil, nil, nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want containing %q", err, tt.wantErr)
			}
		})
	}
	pf, err := New(d, []string{"5000"}, nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pf.ports[0] != (ForwardedPort{Local: 5000, Remote: 5000}) {
		t.Errorf("ports = %+v", pf.ports)
	}
	if _, err := pf.GetPorts(); err == nil || !strings.Contains(err.Error(), "no Ready channel") {
		t.Errorf("GetPorts without Ready = %v", err)
	}
}

func TestFallbackDialer(t *testing.T) {
	refused := &httpstream.UpgradeFailureError{Cause: errors.New("400 Bad Request")}
	other := errors.New("connection refused")
	tests := []struct {
		name       string
		primaryErr error
		want       string
		wantErr    error
	}{
		{"primary works", nil, "primary", nil},
		{"upgrade refused falls back", refused, "secondary", nil},
		{"other error does not", other, "", other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			primary := fakeDialer{name: "primary", err: tt.primaryErr}
			secondary := fakeDialer{name: "secondary"}
			_, got, err := NewFallbackDialer(primary, secondary, httpstream.IsUpgradeFailure).Dial(PortForwardProtocolV1Name)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("Dial = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
			_, got, err = NewFallbackDialerForStreaming(streamadapt.DialerToStreaming(primary), streamadapt.DialerToStreaming(secondary), httpstream.IsUpgradeFailure).Dial(PortForwardProtocolV1Name)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("streaming Dial = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// fakeDialer answers with its name as the protocol, or with err.
type fakeDialer struct {
	name string
	err  error
}

func (f fakeDialer) Dial(...string) (httpstream.Connection, string, error) {
	if f.err != nil {
		return nil, "", f.err
	}
	return nil, f.name, nil
}

// syncWriter lets the forwarder's goroutines log while the test reads.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}
