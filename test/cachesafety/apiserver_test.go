package cachesafety

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// epoch is what the fake server serves between two relists: a list at a
// resource version, then watch events after it, then an ending.
type epoch struct {
	rv    int64
	items [][]byte // list items as the wire format puts them in a list
	// badPage, when set, replaces the bytes of the first list page the
	// first time this epoch is listed (a truncated or corrupted body).
	badPage func(page []byte) []byte
	events  []frame
	// tail is written after the events (an ERROR event, a corrupted or
	// cut frame); the stream then closes and the next epoch begins. Nil
	// keeps the stream open until the client leaves: the last epoch.
	tail []byte
}

// frame is one watch event on the wire and the resource version it brings.
type frame struct {
	rv    int64
	bytes []byte
}

// apiServer is a fake kube-apiserver serving one collection of pods (any
// namespace) in one wire format, epoch after epoch.
//
// Its handler goroutines are httptest's; mu guards the fields below it.
type apiServer struct {
	t    testing.TB
	wire wireFormat
	page int // most items per list page, whatever limit asks
	// release, when not nil, holds the first watch's events until closed.
	release chan struct{}
	srv     *httptest.Server
	done    chan struct{} // closed when the test ends: open watches return

	mu        sync.Mutex
	epochs    []*epoch
	cur       int // the epoch LIST serves
	badServed map[int]bool
	lists     int // LIST requests, pages included
	watches   int
}

func newAPIServer(t testing.TB, wire wireFormat, page int, epochs []*epoch) *apiServer {
	s := &apiServer{t: t, wire: wire, page: page, epochs: epochs, badServed: map[int]bool{}, done: make(chan struct{})}
	s.srv = httptest.NewServer(s)
	t.Cleanup(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
	return s
}

// ServeHTTP answers LIST and WATCH of pods, cluster-wide or in a namespace.
func (s *apiServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if !strings.HasPrefix(p, "/api/v1/") || !strings.HasSuffix(p, "/pods") {
		s.t.Errorf("fake apiserver: unexpected %s %s", r.Method, r.URL)
		http.NotFound(w, r)
		return
	}
	accept := r.Header.Get("Accept")
	if s.wire.protobuf && !strings.Contains(accept, "application/vnd.kubernetes.protobuf") ||
		s.wire.metadata != strings.Contains(accept, "as=PartialObjectMetadata") {
		s.t.Errorf("fake apiserver speaking %s: unexpected Accept %q", s.wire, accept)
		http.Error(w, "not acceptable", http.StatusNotAcceptable)
		return
	}
	q := r.URL.Query()
	if q.Get("watch") == "true" || q.Get("watch") == "1" {
		s.serveWatch(w, r)
		return
	}
	s.serveList(w, r)
}

func (s *apiServer) serveList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.lists++
	e, from := s.cur, 0
	if c := q.Get("continue"); c != "" {
		var err error
		if _, err = fmt.Sscanf(c, "%d-%d", &e, &from); err != nil || e >= len(s.epochs) || from > len(s.epochs[e].items) {
			s.mu.Unlock()
			http.Error(w, "bad continue token", http.StatusBadRequest)
			return
		}
	}
	ep := s.epochs[e]
	bad := from == 0 && ep.badPage != nil && !s.badServed[e]
	if bad {
		s.badServed[e] = true
	}
	s.mu.Unlock()

	to := min(len(ep.items), from+s.page)
	if limit, err := strconv.Atoi(q.Get("limit")); err == nil && limit > 0 {
		to = min(to, from+limit)
	}
	cont := ""
	if to < len(ep.items) {
		cont = fmt.Sprintf("%d-%d", e, to)
	}
	body := s.wire.list(ep.items[from:to], ep.rv, cont, int64(len(ep.items)-to))
	if bad {
		body = ep.badPage(body)
	}
	w.Header().Set("Content-Type", s.wire.contentType(false))
	_, _ = w.Write(body)
}

func (s *apiServer) serveWatch(w http.ResponseWriter, r *http.Request) {
	rv, err := strconv.ParseInt(r.URL.Query().Get("resourceVersion"), 10, 64)
	s.mu.Lock()
	s.watches++
	first := s.watches == 1
	e, next := s.findLocked(rv)
	var ep *epoch
	if e >= 0 {
		ep = s.epochs[e]
	}
	s.mu.Unlock()
	if err != nil || ep == nil {
		s.t.Errorf("fake apiserver: watch from unexpected resourceVersion %q", r.URL.Query().Get("resourceVersion"))
		http.Error(w, "unexpected resourceVersion", http.StatusGone)
		return
	}
	flusher := w.(http.Flusher)
	w.Header().Set("Content-Type", s.wire.contentType(true))
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	if first && s.release != nil {
		select {
		case <-s.release:
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	for _, f := range ep.events[next:] {
		if _, err := w.Write(f.bytes); err != nil {
			return
		}
		flusher.Flush()
	}
	if ep.tail == nil {
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
		return
	}
	s.mu.Lock()
	if s.cur == e {
		s.cur = e + 1
	}
	s.mu.Unlock()
	_, _ = w.Write(ep.tail)
	flusher.Flush()
}

// findLocked returns the epoch a watch from rv continues and the index of
// its first event after rv; -1 when no epoch has rv.
func (s *apiServer) findLocked(rv int64) (e, next int) {
	for e := len(s.epochs) - 1; e >= 0; e-- {
		ep := s.epochs[e]
		if ep.rv == rv {
			return e, 0
		}
		for i, f := range ep.events {
			if f.rv == rv {
				return e, i + 1
			}
		}
	}
	return -1, 0
}

// stats returns the LIST and WATCH requests served.
func (s *apiServer) stats() (lists, watches int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists, s.watches
}
