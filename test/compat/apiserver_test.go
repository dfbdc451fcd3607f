package compat

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
)

// podServer is a fake kube-apiserver for the pods of namespace "ns": a
// LIST returns pods at listRV; the n-th WATCH (from 0) is answered by
// watches[n] when there is one, and otherwise stays open without events
// until the client goes away. A streaming list (sendInitialEvents) is
// refused, as by a server that does not serve them.
type podServer struct {
	pods    []*corev1.Pod
	listRV  string
	watches []func(w http.ResponseWriter)

	mu        sync.Mutex // guards the fields below
	lists     int
	watchedAt []string // resourceVersion of every watch request
}

func (s *podServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("watch") != "true" {
		s.mu.Lock()
		s.lists++
		s.mu.Unlock()
		list := &corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}, ListMeta: metav1.ListMeta{ResourceVersion: s.listRV}}
		for _, p := range s.pods {
			list.Items = append(list.Items, *p)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(list)
		return
	}
	if r.URL.Query().Get("sendInitialEvents") == "true" {
		// A server without streaming lists: the reflector lists instead.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"BadRequest","code":400,"message":"sendInitialEvents is not supported"}`))
		return
	}
	s.mu.Lock()
	n := len(s.watchedAt)
	s.watchedAt = append(s.watchedAt, r.URL.Query().Get("resourceVersion"))
	s.mu.Unlock()
	if n < len(s.watches) {
		s.watches[n](w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

// counts returns the number of lists and the resource versions watched
// from.
func (s *podServer) counts() (lists int, watchedAt []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists, append([]string(nil), s.watchedAt...)
}

// start serves s and returns a clientset for it.
func (s *podServer) start(t *testing.T) kubernetes.Interface {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// testPod is pod ns/name at resource version rv.
func testPod(name, rv string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv, Labels: map[string]string{"app": "web"}},
	}
}

// watchFrame is one event of a JSON watch stream.
func watchFrame(t *testing.T, eventType watch.EventType, obj runtime.Object) []byte {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	frame, err := json.Marshal(metav1.WatchEvent{Type: string(eventType), Object: runtime.RawExtension{Raw: raw}})
	if err != nil {
		t.Fatal(err)
	}
	return append(frame, '\n')
}

// cutStream answers a watch with body, sent in one chunk, and then ends
// the chunked response: body ends inside an event when it holds part of
// one, which is what a network blip or a proxy's timeout does.
func cutStream(body []byte) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = fmt.Fprintf(w, "%s", body)
		w.(http.Flusher).Flush()
	}
}
