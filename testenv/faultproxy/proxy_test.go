package faultproxy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"
)

// upstream is a TLS server that answers /list with a small JSON body and
// /watch with one JSON line every few milliseconds until the client goes.
func upstream(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/list", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"kind":"List","items":[]}`)
	})
	mux.HandleFunc("/watch", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for i := 0; ; i++ {
			fmt.Fprintf(w, `{"type":"ADDED","object":{"n":%d,"pad":"%s"}}`+"\n", i, strings.Repeat("x", 64))
			http.NewResponseController(w).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// newProxy starts a proxy (plain HTTP) in front of up with schedule s.
func newProxy(t *testing.T, up *httptest.Server, s Schedule) *Proxy {
	t.Helper()
	u, _ := url.Parse(up.URL)
	p, err := New(Config{Upstream: u, UpstreamTLS: up.Client().Transport.(*http.Transport).TLSClientConfig, Schedule: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func client() *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
}

func TestForwardsUntouched(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{})
	resp, err := client().Get(p.URL + "/list")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != `{"kind":"List","items":[]}` {
		t.Errorf("got %d %q", resp.StatusCode, body)
	}
	if got := p.Stats()[None]; got != 1 {
		t.Errorf("Stats()[None] = %d, want 1", got)
	}
}

func TestReset(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{})
	p.Inject(Reset)
	_, err := client().Get(p.URL + "/list")
	if !errors.Is(err, syscall.ECONNRESET) && (err == nil || !strings.Contains(err.Error(), "EOF")) {
		t.Errorf("err = %v, want a connection reset", err)
	}
	if p.Faults() != 1 || p.Stats()[Reset] != 1 {
		t.Errorf("stats %v", p.Stats())
	}
}

func TestTooManyRequests(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{RetryAfter: 3})
	p.Inject(TooManyRequests)
	resp, err := client().Get(p.URL + "/list")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || !strings.Contains(string(body), `"reason":"TooManyRequests"`) {
		t.Errorf("got %d Retry-After %q body %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
}

func TestServerError(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{})
	p.Inject(ServerError, ServerError, ServerError, ServerError, ServerError, ServerError)
	for range 6 {
		resp, err := client().Get(p.URL + "/list")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 500 && resp.StatusCode != 503 || !strings.Contains(string(body), `"kind":"Status"`) {
			t.Errorf("got %d %s", resp.StatusCode, body)
		}
	}
}

func TestDelay(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{MaxDelay: 300 * time.Millisecond})
	// The delay is drawn in [0, MaxDelay); the test only checks that the
	// answer arrives intact and the fault is counted.
	p.Inject(Delay)
	resp, err := client().Get(p.URL + "/list")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || p.Stats()[Delay] != 1 {
		t.Errorf("status %d stats %v", resp.StatusCode, p.Stats())
	}
}

// TestCut reads a watch that is cut: whole lines arrive, then a partial
// line, then an error instead of a clean end.
func TestCut(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{})
	p.Inject(Cut)
	// A Cut waits for a watch; the list passes.
	if resp, err := client().Get(p.URL + "/list"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	resp, err := client().Get(p.URL + "/watch?watch=true")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Fatalf("watch ended cleanly after %d bytes; want an error", len(data))
	}
	if len(data) == 0 || data[len(data)-1] == '\n' {
		t.Errorf("watch cut after %d bytes ending %q; want a partial event", len(data), tailOf(data))
	}
	if p.Stats()[Cut] != 1 {
		t.Errorf("stats %v", p.Stats())
	}
}

func tailOf(b []byte) string {
	if len(b) > 20 {
		b = b[len(b)-20:]
	}
	return string(b)
}

// TestStall gets the headers of a stalled watch, then nothing until the
// stall's bound ends it.
func TestStall(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{MaxStall: 500 * time.Millisecond})
	p.Inject(Stall)
	start := time.Now()
	resp, err := client().Get(p.URL + "/watch?watch=true")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	n, err := bufio.NewReader(resp.Body).Read(make([]byte, 1))
	if n != 0 || err == nil {
		t.Errorf("read %d bytes, err %v; want nothing then an error", n, err)
	}
	if elapsed := time.Since(start); elapsed < 400*time.Millisecond {
		t.Errorf("stall ended after %v, want about 500ms", elapsed)
	}
}

// TestStallEndsWithClient checks that a stalled stream is released when the
// client gives up, before the bound.
func TestStallEndsWithClient(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{MaxStall: time.Hour})
	p.Inject(Stall)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/watch?watch=true", nil)
	resp, err := client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	resp.Body.Close()
	done := make(chan struct{})
	go func() { p.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close blocked on a stalled stream")
	}
}

// TestScheduleRepeatable checks that one seed gives one sequence of faults
// for requests made one after another, and that the rate is about right.
func TestScheduleRepeatable(t *testing.T) {
	up := upstream(t)
	run := func(seed uint64) []Fault {
		s := Schedule{Seed: seed, Rate: 0.5, Weights: map[Fault]int{TooManyRequests: 1, ServerError: 1}}
		p := newProxy(t, up, s)
		var got []Fault
		for range 40 {
			before := p.Stats()
			resp, err := client().Get(p.URL + "/list")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			after := p.Stats()
			for f := None; f < numFaults; f++ {
				if after[f] != before[f] {
					got = append(got, f)
				}
			}
		}
		return got
	}
	a, b, c := run(7), run(7), run(8)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("seed 7 gave %v then %v", a, b)
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Errorf("seeds 7 and 8 gave the same %v", a)
	}
	faults := 0
	for _, f := range a {
		if f != None {
			faults++
		}
	}
	if faults < 8 || faults > 32 {
		t.Errorf("%d faults in 40 requests at rate 0.5", faults)
	}
}

// TestDrawSkipsStreamFaultsForPlainRequests checks that Cut and Stall are
// drawn for watches only.
func TestDrawSkipsStreamFaultsForPlainRequests(t *testing.T) {
	s := Schedule{Rate: 1, Weights: map[Fault]int{Cut: 1, Stall: 1}}
	p := newProxy(t, upstream(t), s)
	list, _ := http.NewRequest(http.MethodGet, "http://x/list", nil)
	watch, _ := http.NewRequest(http.MethodGet, "http://x/api/v1/pods?watch=true", nil)
	for range 20 {
		if f := s.draw(p.rng, list); f != None {
			t.Fatalf("list drew %v", f)
		}
		if f := s.draw(p.rng, watch); f != Cut && f != Stall {
			t.Fatalf("watch drew %v", f)
		}
	}
}

// TestWatchRate checks that WatchRate replaces Rate for watches only.
func TestWatchRate(t *testing.T) {
	s := Schedule{Rate: 0, WatchRate: 1}
	p := newProxy(t, upstream(t), s)
	list, _ := http.NewRequest(http.MethodGet, "http://x/api/v1/pods", nil)
	watch, _ := http.NewRequest(http.MethodGet, "http://x/api/v1/pods?watch=true", nil)
	for range 20 {
		if f := s.draw(p.rng, list); f != None {
			t.Fatalf("list drew %v at Rate 0", f)
		}
		if f := s.draw(p.rng, watch); f == None {
			t.Fatalf("watch drew none at WatchRate 1")
		}
	}
}

// TestEventCut checks that EventCutRate cuts a healthy watch mid-chunk and
// counts it as a Cut.
func TestEventCut(t *testing.T) {
	p := newProxy(t, upstream(t), Schedule{EventCutRate: 0.2})
	resp, err := client().Get(p.URL + "/watch?watch=true")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil || len(data) == 0 || data[len(data)-1] == '\n' {
		t.Errorf("watch ended after %d bytes (%q), err %v; want a partial event and an error", len(data), tailOf(data), err)
	}
	if p.Stats()[Cut] != 1 || p.Stats()[None] != 1 {
		t.Errorf("stats %v, want the request counted once as none and the cut once", p.Stats())
	}
}
