package leaderelection

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/util/flowcontrol"
)

// leaseServer is a minimal coordination.k8s.io/v1 Lease API on httptest. It
// speaks the real JSON wire format, assigns resourceVersions and rejects
// stale updates with 409 Conflict, like the API server.
type leaseServer struct {
	srv *httptest.Server

	mu      sync.Mutex // guards leases, rv, onWrite calls
	leases  map[string]*coordinationv1.Lease
	rv      int
	onWrite func(old, cur *coordinationv1.Lease) // called under mu for every accepted write

	requests atomic.Int64
}

const leasePrefix = "/apis/coordination.k8s.io/v1/namespaces/"

func newLeaseServer(t *testing.T) *leaseServer {
	t.Helper()
	s := &leaseServer{leases: map[string]*coordinationv1.Lease{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

var leaseGR = schema.GroupResource{Group: "coordination.k8s.io", Resource: "leases"}

func writeStatus(w http.ResponseWriter, err *apierrors.StatusError) {
	st := err.ErrStatus
	st.Kind, st.APIVersion = "Status", "v1"
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(int(st.Code))
	_ = json.NewEncoder(w).Encode(st)
}

func writeLease(w http.ResponseWriter, code int, l *coordinationv1.Lease) {
	out := l.DeepCopy()
	out.Kind, out.APIVersion = "Lease", "coordination.k8s.io/v1"
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(out)
}

func (s *leaseServer) serve(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	rest, ok := strings.CutPrefix(r.URL.Path, leasePrefix)
	parts := strings.Split(rest, "/")
	if !ok || len(parts) < 2 || parts[1] != "leases" || len(parts) > 3 {
		writeStatus(w, apierrors.NewNotFound(schema.GroupResource{}, r.URL.Path))
		return
	}
	ns, name := parts[0], ""
	if len(parts) == 3 {
		name = parts[2]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := ns + "/" + name
	switch {
	case r.Method == http.MethodGet && name != "":
		l, found := s.leases[key]
		if !found {
			writeStatus(w, apierrors.NewNotFound(leaseGR, name))
			return
		}
		writeLease(w, http.StatusOK, l)
	case r.Method == http.MethodPost && name == "":
		var in coordinationv1.Lease
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			writeStatus(w, apierrors.NewBadRequest(err.Error()))
			return
		}
		key = ns + "/" + in.Name
		if _, found := s.leases[key]; found {
			writeStatus(w, apierrors.NewAlreadyExists(leaseGR, in.Name))
			return
		}
		s.store(key, &in, ns)
		writeLease(w, http.StatusCreated, s.leases[key])
	case r.Method == http.MethodPut && name != "":
		var in coordinationv1.Lease
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			writeStatus(w, apierrors.NewBadRequest(err.Error()))
			return
		}
		cur, found := s.leases[key]
		if !found {
			writeStatus(w, apierrors.NewNotFound(leaseGR, name))
			return
		}
		if in.ResourceVersion != cur.ResourceVersion {
			writeStatus(w, apierrors.NewConflict(leaseGR, name, errors.New("the object has been modified; please apply your changes to the latest version and try again")))
			return
		}
		s.store(key, &in, ns)
		writeLease(w, http.StatusOK, s.leases[key])
	default:
		writeStatus(w, apierrors.NewMethodNotSupported(leaseGR, r.Method))
	}
}

// store saves l under key with a new resourceVersion; s.mu is held.
func (s *leaseServer) store(key string, l *coordinationv1.Lease, ns string) {
	s.rv++
	l = l.DeepCopy()
	l.Namespace = ns
	l.ResourceVersion = strconv.Itoa(s.rv)
	old := s.leases[key]
	s.leases[key] = l
	if s.onWrite != nil {
		s.onWrite(old, l)
	}
}

func (s *leaseServer) get(ns, name string) *coordinationv1.Lease {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.leases[ns+"/"+name]; l != nil {
		return l.DeepCopy()
	}
	return nil
}

// partitionTransport fails every request while cut is set, as a network
// partition between one client and the API server would.
type partitionTransport struct {
	base http.RoundTripper
	cut  *atomic.Bool
}

func (p *partitionTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if p.cut.Load() {
		return nil, errors.New("network partition: host unreachable")
	}
	return p.base.RoundTrip(req)
}

// client returns a clientset for the server whose requests fail while cut
// is set.
func (s *leaseServer) client(t *testing.T, cut *atomic.Bool) kubernetes.Interface {
	t.Helper()
	cfg := &rest.Config{
		Host:          s.srv.URL,
		ContentConfig: rest.ContentConfig{ContentType: "application/json", AcceptContentTypes: "application/json"},
		RateLimiter:   flowcontrol.NewFakeAlwaysRateLimiter(),
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper {
			return &partitionTransport{base: rt, cut: cut}
		},
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("building clientset: %v", err)
	}
	return cs
}
