package portforward

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	gwebsocket "github.com/gorilla/websocket"

	"k8s.io/klog/v2"
)

// TunnelingConnection is a net.Conn whose bytes travel as binary messages of
// a websocket connection; SPDY runs on top of it for port forwarding.
// Reads come from one goroutine (the SPDY framer); writes are serialized by
// writeMu since gorilla allows a single concurrent writer.
type TunnelingConnection struct {
	logger klog.Logger
	conn   *gwebsocket.Conn

	// inProgress is the reader of the message being consumed; only Read
	// touches it.
	inProgress io.Reader

	writeMu   sync.Mutex
	closeOnce sync.Once
}

var _ net.Conn = &TunnelingConnection{}

// NewTunnelingConnection wraps conn; name is added to its log entries.
func NewTunnelingConnection(name string, conn *gwebsocket.Conn) *TunnelingConnection {
	return NewTunnelingConnectionWithLogger(klog.LoggerWithName(klog.Background(), name), conn)
}

// NewTunnelingConnectionWithLogger wraps conn, logging through logger.
func NewTunnelingConnectionWithLogger(logger klog.Logger, conn *gwebsocket.Conn) *TunnelingConnection {
	return &TunnelingConnection{logger: logger, conn: conn}
}

// Read fills p from the current websocket message, moving on to the next
// message when one is used up. A normal websocket close reads as io.EOF.
func (c *TunnelingConnection) Read(p []byte) (len int, err error) {
	for {
		if c.inProgress == nil {
			messageType, r, err := c.conn.NextReader()
			if err != nil {
				if gwebsocket.IsCloseError(err, gwebsocket.CloseNormalClosure) {
					return 0, io.EOF
				}
				c.logger.V(4).Info("Tunneling connection read failed", "err", err)
				return 0, err
			}
			if messageType != gwebsocket.BinaryMessage {
				return 0, fmt.Errorf("tunneling connection: unexpected websocket message type %d, want binary", messageType)
			}
			c.inProgress = r
		}
		n, err := c.inProgress.Read(p)
		if errors.Is(err, io.EOF) {
			c.inProgress = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// Write sends p as one binary websocket message.
func (c *TunnelingConnection) Write(p []byte) (n int, err error) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	w, err := c.conn.NextWriter(gwebsocket.BinaryMessage)
	if err != nil {
		return 0, err
	}
	n, err = w.Write(p)
	if closeErr := w.Close(); err == nil {
		err = closeErr
	}
	return n, err
}

// Close tells the other end with a normal-closure control message and
// closes the websocket; later calls do nothing.
func (c *TunnelingConnection) Close() error {
	var err error
	c.closeOnce.Do(func() {
		msg := gwebsocket.FormatCloseMessage(gwebsocket.CloseNormalClosure, "")
		if werr := c.conn.WriteControl(gwebsocket.CloseMessage, msg, time.Now().Add(time.Second)); werr != nil {
			c.logger.V(4).Info("Tunneling connection close message failed", "err", werr)
		}
		err = c.conn.Close()
	})
	return err
}

// LocalAddr returns the local address of the websocket connection.
func (c *TunnelingConnection) LocalAddr() net.Addr { return c.conn.LocalAddr() }

// RemoteAddr returns the remote address of the websocket connection.
func (c *TunnelingConnection) RemoteAddr() net.Addr { return c.conn.RemoteAddr() }

// SetDeadline sets both the read and the write deadline.
func (c *TunnelingConnection) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}

// SetReadDeadline sets the read deadline.
func (c *TunnelingConnection) SetReadDeadline(t time.Time) error { return c.conn.SetReadDeadline(t) }

// SetWriteDeadline sets the write deadline.
func (c *TunnelingConnection) SetWriteDeadline(t time.Time) error { return c.conn.SetWriteDeadline(t) }
