package connrotation

import (
	"context"
	"net"
	"sync"
)

// DialFunc has the signature of net.Dialer.DialContext.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// Dialer opens connections with a DialFunc and tracks them in its
// ConnectionTracker.
type Dialer struct {
	dial DialFunc
	*ConnectionTracker
}

// NewDialer returns a Dialer that dials with dial and tracks connections in
// a tracker of its own. It is NewDialerWithTracker(dial, nil).
func NewDialer(dial DialFunc) *Dialer {
	return NewDialerWithTracker(dial, nil)
}

// NewDialerWithTracker returns a Dialer that dials with dial, or with a
// zero net.Dialer when dial is nil, and records connections in tracker, or
// in a new tracker when tracker is nil. Sharing a tracker between dialers
// lets one CloseAll close the connections of all of them.
func NewDialerWithTracker(dial DialFunc, tracker *ConnectionTracker) *Dialer {
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	if tracker == nil {
		tracker = NewConnectionTracker()
	}
	return &Dialer{dial: dial, ConnectionTracker: tracker}
}

// Dial opens a tracked connection; it is DialContext with a background
// context.
func (d *Dialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

// DialContext opens a connection with the dialer's DialFunc and tracks it.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	conn, err := d.dial(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return d.Track(conn), nil
}

// ConnectionTracker records open connections. It is safe for concurrent
// use.
type ConnectionTracker struct {
	// mu guards conns.
	mu    sync.Mutex
	conns map[*trackedConn]struct{}
}

// NewConnectionTracker returns an empty tracker, to share between dialers
// through NewDialerWithTracker.
func NewConnectionTracker() *ConnectionTracker {
	return &ConnectionTracker{conns: map[*trackedConn]struct{}{}}
}

// Track records conn and returns a wrapper of it whose Close also stops
// tracking it.
func (c *ConnectionTracker) Track(conn net.Conn) net.Conn {
	tc := &trackedConn{Conn: conn, tracker: c}
	c.mu.Lock()
	c.conns[tc] = struct{}{}
	c.mu.Unlock()
	return tc
}

// CloseAll closes every connection tracked so far and stops tracking them.
// Connections opened while CloseAll runs may be left open.
func (c *ConnectionTracker) CloseAll() {
	c.mu.Lock()
	conns := c.conns
	c.conns = map[*trackedConn]struct{}{}
	c.mu.Unlock()

	for conn := range conns {
		conn.Close()
	}
}

// untrack forgets conn.
func (c *ConnectionTracker) untrack(conn *trackedConn) {
	c.mu.Lock()
	delete(c.conns, conn)
	c.mu.Unlock()
}

// count returns the number of tracked connections.
func (c *ConnectionTracker) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.conns)
}

// trackedConn is a net.Conn that leaves its tracker when closed.
type trackedConn struct {
	net.Conn
	tracker *ConnectionTracker
}

// Close stops tracking the connection and closes it.
func (c *trackedConn) Close() error {
	c.tracker.untrack(c)
	return c.Conn.Close()
}
