package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kubeclient/client-go/bench/internal/fixture"
)

// Config says what the server holds and which answers it prepares before
// it reports ready.
type Config struct {
	Resource *fixture.Resource
	// N objects in the initial list; Events MODIFIED events after it.
	N, Events int
	// Protobuf prepares protobuf answers (JSON otherwise); Metadata
	// prepares PartialObjectMetadata answers.
	Protobuf, Metadata bool
	// WatchList prepares the initial events of a watch-list; Relist the
	// second list that follows a 410.
	WatchList, Relist bool
}

// Resource versions: object i of the initial list has base+1+i, the list
// base+N; event j carries base+N+1+j; the relist's object i base+N+E+1+i.
const base = 1_000_000

// Stats counts the requests the server answered.
type Stats struct {
	Gets       int64 `json:"gets"`
	Lists      int64 `json:"lists"`      // LIST requests that started a list (no continue token)
	ListPages  int64 `json:"listPages"`  // all LIST requests
	Watches    int64 `json:"watches"`    // watch requests without initial events
	WatchLists int64 `json:"watchLists"` // watch requests with sendInitialEvents=true
	EventsSent int64 `json:"eventsSent"`
	Expired    int64 `json:"expired"`
}

// Server answers the requests of one benchmark run.
type Server struct {
	cfg Config

	mu    sync.Mutex
	reprs map[repr]*answers // guarded by mu

	// events and expire each carry one token per /bench/go call; the watch
	// that takes it sends the events or the 410.
	events chan struct{}
	expire chan struct{}
	// relisted is set once the 410 went out: later lists serve the
	// second generation.
	relisted atomic.Bool

	gets, lists, pages, watches, watchLists, eventsSent, expired atomic.Int64
}

// answers holds everything encoded for one repr.
type answers struct {
	enc        *encoder
	items      [][]byte // list items of the initial list
	relist     [][]byte // list items after the 410
	initial    [][]byte // ADDED frames of a watch-list (built on demand)
	events     [][]byte // MODIFIED frames
	bookmark   []byte
	initialMu  sync.Once
	initialErr error
}

// New encodes what cfg asks for and returns the server.
func New(cfg Config) (*Server, error) {
	s := &Server{cfg: cfg, reprs: map[repr]*answers{}, events: make(chan struct{}, 1), expire: make(chan struct{}, 1)}
	a, err := s.answersFor(repr{protobuf: cfg.Protobuf && (cfg.Resource.Typed || cfg.Metadata), metadata: cfg.Metadata})
	if err != nil {
		return nil, err
	}
	if cfg.WatchList {
		if err := a.buildInitial(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Server) answersFor(r repr) (*answers, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.reprs[r]; a != nil {
		return a, nil
	}
	res := s.cfg.Resource
	enc := newEncoder(r, res.GVK, res.ListKind, res.Typed)
	a := &answers{enc: enc}
	n, e := s.cfg.N, s.cfg.Events
	var err error
	if a.items, err = encodeItems(enc, res, n, func(i int) (int, int64) { return 0, base + 1 + int64(i) }); err != nil {
		return nil, err
	}
	if s.cfg.Relist {
		// Past every event's revision, so each relisted object is an update.
		rev := e/max(n, 1) + 2
		if a.relist, err = encodeItems(enc, res, n, func(i int) (int, int64) { return rev, base + int64(n+e+1+i) }); err != nil {
			return nil, err
		}
	}
	a.events = make([][]byte, e)
	for j := range a.events {
		it, err := enc.item(res.Object(j%n, j/n+1, base+int64(n+1+j)))
		if err != nil {
			return nil, err
		}
		a.events[j] = enc.frame("MODIFIED", enc.full(it))
	}
	if a.bookmark, err = enc.bookmark(base+int64(n), res.Object(0, 0, 1)); err != nil {
		return nil, err
	}
	s.reprs[r] = a
	return a, nil
}

func encodeItems(enc *encoder, res *fixture.Resource, n int, version func(i int) (rev int, rv int64)) ([][]byte, error) {
	out := make([][]byte, n)
	for i := range out {
		rev, rv := version(i)
		var err error
		if out[i], err = enc.item(res.Object(i, rev, rv)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (a *answers) buildInitial() error {
	a.initialMu.Do(func() {
		a.initial = make([][]byte, len(a.items))
		for i, it := range a.items {
			a.initial[i] = a.enc.frame("ADDED", a.enc.full(it))
		}
	})
	return a.initialErr
}

// Stats returns the request counts so far.
func (s *Server) Stats() Stats {
	return Stats{Gets: s.gets.Load(), Lists: s.lists.Load(), ListPages: s.pages.Load(), Watches: s.watches.Load(),
		WatchLists: s.watchLists.Load(), EventsSent: s.eventsSent.Load(), Expired: s.expired.Load()}
}

// ServeHTTP answers the API paths of the configured resource and the
// /bench/ control endpoints.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/bench/stats":
		_ = json.NewEncoder(w).Encode(s.Stats())
		return
	case "/bench/go":
		switch r.URL.Query().Get("phase") {
		case "events":
			s.events <- struct{}{}
		case "expire":
			s.expire <- struct{}{}
		default:
			http.Error(w, "phase must be events or expire", http.StatusBadRequest)
		}
		return
	}
	name, ok := s.parsePath(r.URL.Path)
	if !ok {
		http.Error(w, fmt.Sprintf("fake server serves %s only, not %s", s.cfg.Resource.Name, r.URL.Path), http.StatusNotFound)
		return
	}
	a, err := s.answersFor(s.negotiate(r.Header.Get("Accept")))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	q := r.URL.Query()
	switch {
	case name != "":
		s.get(w, a, name)
	case q.Get("watch") == "true" || q.Get("watch") == "1":
		s.watch(w, r, a)
	default:
		s.list(w, r, a)
	}
}

// parsePath accepts the collection path of the resource, cluster-wide or
// in a namespace, and a path to one object (whose name it returns).
func (s *Server) parsePath(p string) (name string, ok bool) {
	gv := s.cfg.Resource.GVK.GroupVersion()
	prefix := "/api/" + gv.Version
	if gv.Group != "" {
		prefix = "/apis/" + gv.Group + "/" + gv.Version
	}
	rest, ok := strings.CutPrefix(p, prefix+"/")
	if !ok {
		return "", false
	}
	parts := strings.Split(rest, "/")
	if len(parts) >= 2 && parts[0] == "namespaces" {
		parts = parts[2:]
	}
	switch {
	case len(parts) == 1 && parts[0] == s.cfg.Resource.Name:
		return "", true
	case len(parts) == 2 && parts[0] == s.cfg.Resource.Name:
		return parts[1], true
	}
	return "", false
}

// negotiate picks the answer for an Accept header as kube-apiserver would,
// limited to what this server was told to speak.
func (s *Server) negotiate(accept string) repr {
	meta := strings.Contains(accept, "as=PartialObjectMetadata")
	pb := strings.Contains(accept, "application/vnd.kubernetes.protobuf") && s.cfg.Protobuf
	if !meta && !s.cfg.Resource.Typed {
		pb = false
	}
	return repr{protobuf: pb, metadata: meta}
}

func contentType(r repr, watch bool) string {
	if !r.protobuf {
		return "application/json"
	}
	if watch {
		return "application/vnd.kubernetes.protobuf;stream=watch"
	}
	return "application/vnd.kubernetes.protobuf"
}

// get answers for any name with object 0: the benchmark measures the
// decoding, not the lookup.
func (s *Server) get(w http.ResponseWriter, a *answers, _ string) {
	s.gets.Add(1)
	w.Header().Set("Content-Type", contentType(a.enc.repr, false))
	_, _ = w.Write(a.enc.object(a.items[0]))
}

func (s *Server) list(w http.ResponseWriter, r *http.Request, a *answers) {
	s.pages.Add(1)
	q := r.URL.Query()
	items, rv := a.items, int64(base+s.cfg.N)
	if s.relisted.Load() && a.relist != nil {
		items, rv = a.relist, int64(base+2*s.cfg.N+s.cfg.Events)
	}
	from := 0
	if c := q.Get("continue"); c != "" {
		var err error
		if from, err = strconv.Atoi(c); err != nil || from < 0 || from > len(items) {
			http.Error(w, "bad continue token", http.StatusBadRequest)
			return
		}
	} else {
		s.lists.Add(1)
	}
	to := len(items)
	if limit, err := strconv.Atoi(q.Get("limit")); err == nil && limit > 0 && from+limit < to {
		to = from + limit
	}
	cont := ""
	if to < len(items) {
		cont = strconv.Itoa(to)
	}
	w.Header().Set("Content-Type", contentType(a.enc.repr, false))
	_, _ = w.Write(a.enc.list(items[from:to], rv, cont, int64(len(items)-to)))
}

func (s *Server) watch(w http.ResponseWriter, r *http.Request, a *answers) {
	q := r.URL.Query()
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", contentType(a.enc.repr, true))
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}
	write := func(frames [][]byte) bool {
		for k, f := range frames {
			if _, err := w.Write(f); err != nil {
				return false
			}
			if flusher != nil && k%16 == 15 {
				flusher.Flush()
			}
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	if q.Get("sendInitialEvents") == "true" {
		s.watchLists.Add(1)
		if err := a.buildInitial(); err != nil {
			return
		}
		if !write(a.initial) || !write([][]byte{a.bookmark}) {
			return
		}
	} else {
		s.watches.Add(1)
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.events:
			if !write(a.events) {
				return
			}
			s.eventsSent.Add(int64(len(a.events)))
		case <-s.expire:
			s.relisted.Store(true)
			s.expired.Add(1)
			write([][]byte{a.enc.expired(base)})
			return
		}
	}
}
