package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestHTTP2HealthCheckDetectsDeadConnection talks HTTP/2 to a server that
// completes the TLS handshake and then never answers, like a peer behind a
// dropped network path. The health check (a PING after the read idle timeout,
// failing after the ping timeout) must break the request instead of letting
// it hang.
func TestHTTP2HealthCheckDetectsDeadConnection(t *testing.T) {
	t.Setenv("HTTP2_READ_IDLE_TIMEOUT_SECONDS", "1")
	t.Setenv("HTTP2_PING_TIMEOUT_SECONDS", "1")

	ca := newTestCA(t, "ca")
	serving := ca.servingCert(t).tlsCertificate(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{
		Certificates: []tls.Certificate{serving},
		NextProtos:   []string{"h2"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	negotiated := make(chan string, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		tc := conn.(*tls.Conn)
		if err := tc.Handshake(); err != nil {
			negotiated <- "handshake error: " + err.Error()
			return
		}
		negotiated <- tc.ConnectionState().NegotiatedProtocol
		_, _ = io.Copy(io.Discard, conn) // swallow everything, answer nothing
	}()

	rt, err := New(&Config{TLS: TLSConfig{CAData: ca.certPEM}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := newGet(t, "https://"+ln.Addr().String()+"/api").WithContext(ctx)
	start := time.Now()
	_, err = rt.RoundTrip(req)
	elapsed := time.Since(start)

	if proto := <-negotiated; proto != "h2" {
		t.Fatalf("negotiated %q, want h2", proto)
	}
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("request to a dead HTTP/2 peer ended with %v after %v; the health check should have failed it", err, elapsed)
	}
	if !strings.Contains(err.Error(), "connection lost") {
		t.Errorf("error %q, want a lost connection", err)
	}
	if elapsed > 15*time.Second {
		t.Errorf("health check took %v, want about 2s", elapsed)
	}
}
