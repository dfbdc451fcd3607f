package portforward

import (
	"context"
	"github.com/kubeclient/client-go/internal/streamadapt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	gwebsocket "github.com/gorilla/websocket"

	"k8s.io/klog/v2"

	restclient "github.com/kubeclient/client-go/rest"
)

func TestContextStopsForwarding(t *testing.T) {
	p := &pod{}
	srv := spdyPodServer(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan struct{})
	pf, err := NewOnAddressesForStreamingWithContext(ctx, streamadapt.DialerToStreaming(spdyDialer(t, srv.URL)), []string{"localhost"}, []string{"0:7000"}, ready, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := forward(t, pf)
	ports, err := pf.GetPorts()
	if err != nil {
		t.Fatal(err)
	}
	if got := exchange(t, ports[0].Local, "hi"); got != "7000:hi" {
		t.Errorf("reply = %q", got)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ForwardPorts = %v after cancel, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ForwardPorts ignored context cancellation")
	}
}

func TestTunnelingConnection(t *testing.T) {
	upgrader := gwebsocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close() //nolint:errcheck
		// Two binary messages, then a text message the tunnel must refuse.
		ws.WriteMessage(gwebsocket.BinaryMessage, []byte("abc"))   //nolint:errcheck
		ws.WriteMessage(gwebsocket.BinaryMessage, []byte("defgh")) //nolint:errcheck
		ws.WriteMessage(gwebsocket.TextMessage, []byte("nope"))    //nolint:errcheck
		ws.ReadMessage()                                           //nolint:errcheck
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	u.Scheme = "ws"
	ws, _, err := gwebsocket.DefaultDialer.Dial(u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := NewTunnelingConnection("test", ws)
	defer c.Close() //nolint:errcheck

	var got []byte
	buf := make([]byte, 2)
	for len(got) < 8 {
		n, err := c.Read(buf)
		if err != nil {
			t.Fatalf("Read after %q: %v", got, err)
		}
		got = append(got, buf[:n]...)
	}
	if string(got) != "abcdefgh" {
		t.Errorf("read %q, want the two messages joined", got)
	}
	if _, err := c.Read(buf); err == nil || !strings.Contains(err.Error(), "message type") {
		t.Errorf("text message: err = %v", err)
	}
	if c.LocalAddr() == nil || c.RemoteAddr().String() != u.Host {
		t.Errorf("addresses: %v -> %v", c.LocalAddr(), c.RemoteAddr())
	}
	for _, set := range []func(time.Time) error{c.SetDeadline, c.SetReadDeadline, c.SetWriteDeadline} {
		if err := set(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("deadline: %v", err)
		}
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestTunnelingDialerRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \"web\" is forbidden","reason":"Forbidden","code":403}`)) //nolint:errcheck
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	d, err := NewSPDYOverWebsocketDialerForStreamingWithLogger(testLogger(t), u, &restclient.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Dial(PortForwardProtocolV1Name); err == nil || !strings.Contains(err.Error(), "forbidden") {
		t.Errorf("err = %v, want the server's Forbidden status", err)
	}
	if _, err := NewSPDYOverWebsocketDialer(nil, &restclient.Config{}); err == nil {
		t.Error("nil URL accepted")
	}
}

func testLogger(t *testing.T) klog.Logger { return klog.Background().WithName(t.Name()) }
