package connrotation

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"
)

// pipeDialer hands out in-memory connections and keeps the server ends.
type pipeDialer struct {
	mu      sync.Mutex
	servers []net.Conn
	calls   []string
}

func (p *pipeDialer) dial(_ context.Context, network, address string) (net.Conn, error) {
	client, server := net.Pipe()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.servers = append(p.servers, server)
	p.calls = append(p.calls, network+" "+address)
	return client, nil
}

// isClosed reports whether conn has been closed locally, without blocking:
// setting a deadline fails only on a closed connection.
func isClosed(conn net.Conn) bool {
	return conn.SetDeadline(time.Now()) != nil
}

func TestCloseAllClosesEveryTrackedConnection(t *testing.T) {
	tests := []struct {
		name        string
		open        int
		closeBefore int // how many are closed by the caller before CloseAll
	}{
		{name: "none", open: 0},
		{name: "one", open: 1},
		{name: "several", open: 5},
		{name: "some already closed", open: 4, closeBefore: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pd := &pipeDialer{}
			d := NewDialer(pd.dial)
			var conns []net.Conn
			for i := 0; i < tt.open; i++ {
				c, err := d.Dial("tcp", "example.invalid:443")
				if err != nil {
					t.Fatalf("Dial: %v", err)
				}
				conns = append(conns, c)
			}
			for _, c := range conns[:tt.closeBefore] {
				if err := c.Close(); err != nil {
					t.Fatalf("Close: %v", err)
				}
			}
			if got, want := d.count(), tt.open-tt.closeBefore; got != want {
				t.Fatalf("tracked %d connections, want %d", got, want)
			}

			d.CloseAll()

			if got := d.count(); got != 0 {
				t.Errorf("tracked %d connections after CloseAll, want 0", got)
			}
			for i, c := range conns {
				if !isClosed(c) {
					t.Errorf("connection %d still open after CloseAll", i)
				}
			}
		})
	}
}

func TestSharedTrackerClosesConnectionsOfAllDialers(t *testing.T) {
	tracker := NewConnectionTracker()
	pd := &pipeDialer{}
	d1 := NewDialerWithTracker(pd.dial, tracker)
	d2 := NewDialerWithTracker(pd.dial, tracker)
	c1, err := d1.DialContext(context.Background(), "tcp", "a:1")
	if err != nil {
		t.Fatal(err)
	}
	c2, err := d2.DialContext(context.Background(), "tcp", "b:2")
	if err != nil {
		t.Fatal(err)
	}
	d1.CloseAll()
	if !isClosed(c1) || !isClosed(c2) {
		t.Errorf("closed: c1=%v c2=%v, want both", isClosed(c1), isClosed(c2))
	}
	if want := []string{"tcp a:1", "tcp b:2"}; len(pd.calls) != 2 || pd.calls[0] != want[0] || pd.calls[1] != want[1] {
		t.Errorf("dial calls = %q, want %q", pd.calls, want)
	}
}

func TestDialErrorIsReturnedAndNothingTracked(t *testing.T) {
	wantErr := errors.New("connection refused")
	d := NewDialer(func(context.Context, string, string) (net.Conn, error) { return nil, wantErr })
	conn, err := d.Dial("tcp", "x:1")
	if !errors.Is(err, wantErr) || conn != nil {
		t.Fatalf("Dial = (%v, %v), want (nil, %v)", conn, err, wantErr)
	}
	if d.count() != 0 {
		t.Errorf("a failed dial was tracked")
	}
}

func TestNilDialUsesNetDialer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
		close(accepted)
	}()

	d := NewDialerWithTracker(nil, nil)
	c, err := d.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	server := <-accepted
	if server == nil {
		t.Fatal("listener accepted nothing")
	}
	defer server.Close()

	d.CloseAll()
	buf := make([]byte, 1)
	if _, err := server.Read(buf); err == nil {
		t.Errorf("server read succeeded after client side CloseAll")
	}
	if !isClosed(c) {
		t.Errorf("client connection still open")
	}
}

func TestConcurrentDialAndCloseAll(t *testing.T) {
	pd := &pipeDialer{}
	d := NewDialer(pd.dial)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				c, err := d.Dial("tcp", "x:1")
				if err != nil {
					t.Error(err)
					return
				}
				if j%2 == 0 {
					c.Close()
				}
				if j%5 == 0 {
					d.CloseAll()
				}
			}
		}()
	}
	wg.Wait()
	d.CloseAll()
	if d.count() != 0 {
		t.Errorf("tracked %d connections after final CloseAll", d.count())
	}
}
