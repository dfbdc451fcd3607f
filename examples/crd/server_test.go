package crd_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	stablev1 "github.com/kubeclient/client-go/examples/crd/apis/stable/v1"
)

// cronTabServer is an in-memory API server for the crontabs resource of
// namespace x, speaking the Kubernetes JSON wire format.
type cronTabServer struct {
	t *testing.T
	// mu guards items, rv and requests.
	mu       sync.Mutex
	items    map[string]*stablev1.CronTab
	rv       int
	requests []string
}

const collectionPath = "/apis/stable.example.com/v1/namespaces/x/crontabs"

func newCronTabServer(t *testing.T) *cronTabServer {
	return &cronTabServer{t: t, items: map[string]*stablev1.CronTab{}}
}

func (s *cronTabServer) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

func (s *cronTabServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	if accept := r.Header.Get("Accept"); strings.Contains(accept, "protobuf") {
		s.status(w, http.StatusNotAcceptable, metav1.StatusReasonNotAcceptable, "JSON client asked for "+accept)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, collectionPath)
	if !ok {
		s.status(w, http.StatusNotFound, metav1.StatusReasonNotFound, "no such path "+r.URL.Path)
		return
	}
	name, sub, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
	switch {
	case name == "" && r.Method == http.MethodGet && r.URL.Query().Get("watch") == "true":
		s.watch(w, r)
	case name == "" && r.Method == http.MethodGet:
		s.mu.Lock()
		list := &stablev1.CronTabList{TypeMeta: metav1.TypeMeta{Kind: "CronTabList", APIVersion: "stable.example.com/v1"}}
		list.ResourceVersion = fmt.Sprint(s.rv)
		for _, ct := range s.items {
			list.Items = append(list.Items, *ct.DeepCopy())
		}
		s.mu.Unlock()
		s.write(w, http.StatusOK, list)
	case name == "" && r.Method == http.MethodPost:
		ct, ok := s.decode(w, r)
		if !ok {
			return
		}
		s.mu.Lock()
		if _, exists := s.items[ct.Name]; exists {
			s.mu.Unlock()
			s.status(w, http.StatusConflict, metav1.StatusReasonAlreadyExists, "crontabs "+ct.Name+" already exists")
			return
		}
		s.rv++
		ct.ResourceVersion = fmt.Sprint(s.rv)
		ct.Status = stablev1.CronTabStatus{}
		s.items[ct.Name] = ct.DeepCopy()
		s.mu.Unlock()
		s.write(w, http.StatusCreated, ct)
	case name != "" && sub == "" && r.Method == http.MethodGet:
		s.mu.Lock()
		ct := s.items[name]
		s.mu.Unlock()
		if ct == nil {
			s.status(w, http.StatusNotFound, metav1.StatusReasonNotFound, "crontabs "+name+" not found")
			return
		}
		s.write(w, http.StatusOK, ct)
	case name != "" && r.Method == http.MethodPut && (sub == "" || sub == "status"):
		ct, ok := s.decode(w, r)
		if !ok {
			return
		}
		s.mu.Lock()
		old := s.items[name]
		if old == nil {
			s.mu.Unlock()
			s.status(w, http.StatusNotFound, metav1.StatusReasonNotFound, "crontabs "+name+" not found")
			return
		}
		next := old.DeepCopy()
		if sub == "status" {
			next.Status = ct.Status
		} else {
			next.Spec = ct.Spec
			next.Labels = ct.Labels
		}
		s.rv++
		next.ResourceVersion = fmt.Sprint(s.rv)
		s.items[name] = next
		s.mu.Unlock()
		s.write(w, http.StatusOK, next)
	case name != "" && sub == "" && r.Method == http.MethodDelete:
		s.mu.Lock()
		_, exists := s.items[name]
		delete(s.items, name)
		s.mu.Unlock()
		if !exists {
			s.status(w, http.StatusNotFound, metav1.StatusReasonNotFound, "crontabs "+name+" not found")
			return
		}
		s.write(w, http.StatusOK, &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusSuccess})
	case name != "" && sub == "" && r.Method == http.MethodPatch:
		if ct := r.Header.Get("Content-Type"); ct != "application/apply-patch+yaml" {
			s.status(w, http.StatusUnsupportedMediaType, metav1.StatusReasonUnsupportedMediaType, "unexpected patch type "+ct)
			return
		}
		if r.URL.Query().Get("fieldManager") == "" {
			s.status(w, http.StatusUnprocessableEntity, metav1.StatusReasonInvalid, "fieldManager is required for apply")
			return
		}
		ct, ok := s.decode(w, r)
		if !ok {
			return
		}
		s.mu.Lock()
		s.rv++
		ct.ResourceVersion = fmt.Sprint(s.rv)
		s.items[name] = ct.DeepCopy()
		s.mu.Unlock()
		s.write(w, http.StatusOK, ct)
	default:
		s.status(w, http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed, r.Method+" not allowed on "+r.URL.Path)
	}
}

// watch streams one ADDED event per stored object and then keeps the
// stream open until the client goes away.
func (s *cronTabServer) watch(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	s.mu.Lock()
	var items []*stablev1.CronTab
	for _, ct := range s.items {
		items = append(items, ct.DeepCopy())
	}
	s.mu.Unlock()
	enc := json.NewEncoder(w)
	for _, ct := range items {
		ct.TypeMeta = metav1.TypeMeta{Kind: "CronTab", APIVersion: "stable.example.com/v1"}
		if err := enc.Encode(map[string]any{"type": "ADDED", "object": ct}); err != nil {
			return
		}
	}
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

func (s *cronTabServer) decode(w http.ResponseWriter, r *http.Request) (*stablev1.CronTab, bool) {
	if ct := r.Header.Get("Content-Type"); r.Method != http.MethodPatch && ct != "application/json" {
		s.status(w, http.StatusUnsupportedMediaType, metav1.StatusReasonUnsupportedMediaType, "expected a JSON body, got "+ct)
		return nil, false
	}
	ct := &stablev1.CronTab{}
	if err := json.NewDecoder(r.Body).Decode(ct); err != nil {
		s.status(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, err.Error())
		return nil, false
	}
	if ct.Kind != "" && (ct.Kind != "CronTab" || ct.APIVersion != "stable.example.com/v1") {
		s.status(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, "unexpected kind "+ct.APIVersion+"/"+ct.Kind)
		return nil, false
	}
	return ct, true
}

func (s *cronTabServer) write(w http.ResponseWriter, code int, obj any) {
	if ct, ok := obj.(*stablev1.CronTab); ok {
		ct.TypeMeta = metav1.TypeMeta{Kind: "CronTab", APIVersion: "stable.example.com/v1"}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if err := json.NewEncoder(w).Encode(obj); err != nil {
		s.t.Errorf("encoding response: %v", err)
	}
}

func (s *cronTabServer) status(w http.ResponseWriter, code int, reason metav1.StatusReason, msg string) {
	s.write(w, code, &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Code: int32(code), Reason: reason, Message: msg,
	})
}
