package faultproxy

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// hopHeaders are connection-level headers a proxy must not forward.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// ServeHTTP applies the fault the schedule picks for r.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Upgrade") != "" {
		http.Error(w, "faultproxy does not forward upgrade requests", http.StatusNotImplemented)
		return
	}
	switch fault := p.decide(r); fault {
	case Reset:
		reset(w)
	case TooManyRequests:
		w.Header().Set("Retry-After", strconv.Itoa(p.cfg.Schedule.retryAfter()))
		writeStatus(w, http.StatusTooManyRequests, "TooManyRequests", "faultproxy: too many requests, please try again later")
	case ServerError:
		if p.jitter(2) == 0 {
			writeStatus(w, http.StatusInternalServerError, "InternalError", "faultproxy: internal error")
		} else {
			writeStatus(w, http.StatusServiceUnavailable, "ServiceUnavailable", "faultproxy: service unavailable")
		}
	case Delay:
		select {
		case <-time.After(p.jitter(p.cfg.Schedule.maxDelay())):
		case <-r.Context().Done():
			return
		case <-p.closed:
			reset(w)
			return
		}
		p.forward(w, r, None)
	default:
		p.forward(w, r, fault)
	}
}

// forward sends r upstream and copies the answer back, flushing after every
// chunk so that watch events pass at once. fault is None, Cut or Stall.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, fault Fault) {
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.URL.Scheme = p.cfg.Upstream.Scheme
	out.URL.Host = p.cfg.Upstream.Host
	out.Host = p.cfg.Upstream.Host
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	if r.ContentLength == 0 {
		out.Body = nil
	}
	resp, err := p.upstream.RoundTrip(out)
	if err != nil {
		if r.Context().Err() == nil {
			writeStatus(w, http.StatusBadGateway, "InternalError", "faultproxy: upstream: "+err.Error())
		}
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	for _, h := range hopHeaders {
		w.Header().Del(h)
	}
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	rc.Flush()

	if fault == Stall {
		select {
		case <-r.Context().Done():
		case <-time.After(p.cfg.Schedule.maxStall()):
		case <-p.closed:
		}
		reset(w)
		return
	}
	cutAt := -1
	if fault == Cut {
		cutAt = p.chunksBeforeCut()
	}
	healthyWatch := fault == None && isWatch(r)
	buf := make([]byte, 32*1024)
	for chunk := 0; ; chunk++ {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			if chunk == cutAt || healthyWatch && p.cutChunk() {
				// Half of this chunk, rounded up, then a reset: the client
				// sees a partial event and the stream ends.
				w.Write(buf[:(n+1)/2])
				rc.Flush()
				hangUp(w, false)
				return
			}
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			rc.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			// The upstream broke the stream; pass the break on.
			reset(w)
			return
		}
		select {
		case <-p.closed:
			reset(w)
			return
		default:
		}
	}
}

// reset closes the connection with a TCP reset: the client's next read or
// write fails with "connection reset by peer".
func reset(w http.ResponseWriter) { hangUp(w, true) }

// hangUp takes the connection over and closes it after flushing what was
// written: with a TCP reset (linger zero) when rst, which may discard the
// flushed bytes on the way, else with an orderly close, so that the client
// reads everything written and then an unexpected end of the body.
func hangUp(w http.ResponseWriter, rst bool) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2): abort the stream.
		panic(http.ErrAbortHandler)
	}
	buf.Flush()
	if tc, ok := underlyingTCP(conn); ok && rst {
		tc.SetLinger(0)
	}
	conn.Close()
}

// underlyingTCP unwraps a TLS connection to its TCP connection.
func underlyingTCP(c net.Conn) (*net.TCPConn, bool) {
	for {
		switch v := c.(type) {
		case *net.TCPConn:
			return v, true
		case interface{ NetConn() net.Conn }:
			c = v.NetConn()
		default:
			return nil, false
		}
	}
}

// writeStatus answers with a metav1.Status body, as kube-apiserver does.
func writeStatus(w http.ResponseWriter, code int, reason, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	msg, _ := json.Marshal(message)
	fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%s,"reason":%q,"code":%d}`+"\n",
		msg, reason, code)
}
