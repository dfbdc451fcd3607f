package faultproxy

import (
	"context"
	"crypto/tls"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Config says where a Proxy forwards to and how it serves.
type Config struct {
	// Upstream is the server's base URL, e.g. https://127.0.0.1:6443.
	Upstream *url.URL
	// UpstreamTLS verifies the upstream; nil means the system roots.
	UpstreamTLS *tls.Config
	// ServeTLS, when not nil, makes the proxy serve HTTPS with its
	// certificates (a certificate the clients trust for 127.0.0.1); its
	// NextProtos are replaced by http/1.1. Nil serves plain HTTP.
	ServeTLS *tls.Config
	// Schedule injects the faults.
	Schedule Schedule
}

// Proxy forwards requests to Config.Upstream and injects faults.
type Proxy struct {
	// URL is the proxy's base URL (https:// when Config.ServeTLS is set).
	URL string

	cfg       Config
	upstream  http.RoundTripper
	server    *http.Server
	listener  net.Listener
	closed    chan struct{} // closed by Close; ends stalls
	closeOnce sync.Once

	// mu guards the fields below.
	mu       sync.Mutex
	rng      *rand.Rand
	enabled  bool
	injected []Fault // forced faults for the next eligible requests, in order
	counts   [numFaults]int
}

// New starts a proxy on a free loopback port. Close stops it.
func New(cfg Config) (*Proxy, error) {
	if cfg.Upstream == nil {
		return nil, errors.New("faultproxy: Config.Upstream is nil")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{
		cfg: cfg,
		upstream: &http.Transport{
			Proxy:               nil,
			TLSClientConfig:     cfg.UpstreamTLS,
			ForceAttemptHTTP2:   true,
			MaxIdleConnsPerHost: 100,
			IdleConnTimeout:     90 * time.Second,
		},
		closed:  make(chan struct{}),
		rng:     rand.New(rand.NewPCG(cfg.Schedule.Seed, 0x6661756c74)),
		enabled: true,
	}
	p.server = &http.Server{
		Handler:           p,
		ReadHeaderTimeout: 30 * time.Second,
		// HTTP/1.1 only: each request owns its connection (see package doc).
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
	}
	scheme := "http"
	if cfg.ServeTLS != nil {
		tlsCfg := cfg.ServeTLS.Clone()
		tlsCfg.NextProtos = []string{"http/1.1"}
		l = tls.NewListener(l, tlsCfg)
		scheme = "https"
	}
	p.listener = l
	p.URL = scheme + "://" + l.Addr().String()
	go p.server.Serve(l)
	return p, nil
}

// Close stops accepting, ends every connection (stalled ones included) and
// returns once the listener is closed.
func (p *Proxy) Close() error {
	p.closeOnce.Do(func() { close(p.closed) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := p.server.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = p.server.Close()
	}
	if t, ok := p.upstream.(*http.Transport); ok {
		t.CloseIdleConnections()
	}
	return err
}

// SetEnabled turns fault injection on or off; while off, every request is
// forwarded untouched (forced faults wait).
func (p *Proxy) SetEnabled(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.enabled = on
}

// Inject forces faults on the next eligible requests, one each, in order,
// ahead of the schedule. Cut and Stall wait for a watch request.
func (p *Proxy) Inject(faults ...Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.injected = append(p.injected, faults...)
}

// Stats returns how many requests got each fault so far (None counts the
// requests forwarded untouched; a watch that EventCutRate cut later counts
// once as None and once as Cut).
func (p *Proxy) Stats() map[Fault]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	stats := map[Fault]int{}
	for f, n := range p.counts {
		stats[Fault(f)] = n
	}
	return stats
}

// Faults returns the number of faults injected so far.
func (p *Proxy) Faults() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	total := 0
	for f := Reset; f < numFaults; f++ {
		total += p.counts[f]
	}
	return total
}

// decide picks the fault for r and counts it.
func (p *Proxy) decide(r *http.Request) Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := None
	if p.enabled {
		f = p.takeInjected(r)
		if f == None {
			f = p.cfg.Schedule.draw(p.rng, r)
		}
	}
	p.counts[f]++
	return f
}

// takeInjected returns the first forced fault that applies to r and
// removes it; p.mu is held.
func (p *Proxy) takeInjected(r *http.Request) Fault {
	if p.cfg.Schedule.Eligible != nil && !p.cfg.Schedule.Eligible(r) {
		return None
	}
	for i, f := range p.injected {
		if (f == Cut || f == Stall) && !isWatch(r) {
			continue
		}
		p.injected = append(p.injected[:i], p.injected[i+1:]...)
		return f
	}
	return None
}

// jitter returns a random duration in [0, max); it takes p.mu.
func (p *Proxy) jitter(max time.Duration) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Duration(p.rng.Int64N(int64(max)))
}

// cutChunk draws whether a chunk of a healthy watch stream is cut, and
// counts the cut; it takes p.mu.
func (p *Proxy) cutChunk() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.enabled || p.cfg.Schedule.EventCutRate <= 0 || p.rng.Float64() >= p.cfg.Schedule.EventCutRate {
		return false
	}
	p.counts[Cut]++
	return true
}

// chunksBeforeCut returns how many body chunks a Cut forwards whole
// before cutting the next one in half; it takes p.mu.
func (p *Proxy) chunksBeforeCut() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rng.IntN(4)
}
