package leaderelection

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	v1 "k8s.io/api/coordination/v1"
	v1beta1 "k8s.io/api/coordination/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/fake"
	"github.com/kubeclient/client-go/rest"
)

// TestLeaseCandidateCreatesItself runs a LeaseCandidate against a
// coordination.k8s.io/v1beta1 server that starts empty, and checks that the
// candidate creates its object with the requested spec.
func TestLeaseCandidateCreatesItself(t *testing.T) {
	created := make(chan v1beta1.LeaseCandidate, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		const base = "/apis/coordination.k8s.io/v1beta1/namespaces/ns/leasecandidates"
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == base && r.URL.Query().Get("watch") == "true":
			if fs := r.URL.Query().Get("fieldSelector"); fs != "metadata.name=me" {
				t.Errorf("watch fieldSelector %q", fs)
			}
			w.WriteHeader(http.StatusOK)
			if r.URL.Query().Get("sendInitialEvents") == "true" {
				// Watch-list: no objects, then the bookmark that ends the
				// initial events.
				bookmark := v1beta1.LeaseCandidate{
					TypeMeta:   metav1.TypeMeta{Kind: "LeaseCandidate", APIVersion: "coordination.k8s.io/v1beta1"},
					ObjectMeta: metav1.ObjectMeta{ResourceVersion: "1", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}},
				}
				raw, _ := json.Marshal(bookmark)
				_ = json.NewEncoder(w).Encode(metav1.WatchEvent{Type: "BOOKMARK", Object: runtime.RawExtension{Raw: raw}})
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case r.Method == http.MethodGet && r.URL.Path == base:
			_ = json.NewEncoder(w).Encode(v1beta1.LeaseCandidateList{
				TypeMeta: metav1.TypeMeta{Kind: "LeaseCandidateList", APIVersion: "coordination.k8s.io/v1beta1"},
				ListMeta: metav1.ListMeta{ResourceVersion: "1"},
			})
		case r.Method == http.MethodPost && r.URL.Path == base:
			var in v1beta1.LeaseCandidate
			if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
				t.Errorf("decoding create: %v", err)
			}
			in.ResourceVersion = "2"
			created <- in
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(in)
		default:
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: "Failure", Code: 404, Reason: metav1.StatusReasonNotFound})
		}
	}))
	defer srv.Close()
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := NewCandidate(nil, "ns", "me", "lease", "1.37.0", "1.37.0", v1.OldestEmulationVersion); err == nil {
		t.Error("NewCandidate accepted a nil clientset")
	}
	lc, waiter, err := NewCandidate(cs, "ns", "me", "kube-scheduler", "1.37.2", "1.37.0", v1.OldestEmulationVersion)
	if err != nil {
		t.Fatal(err)
	}
	if synced := waiter.WaitForCacheSync(make(chan struct{})); len(synced) != 0 {
		t.Errorf("WaitForCacheSync before Run = %v, want nothing started", synced)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); lc.Run(ctx) }()
	defer func() { cancel(); <-done }()

	select {
	case got := <-created:
		if got.Name != "me" || got.Spec.LeaseName != "kube-scheduler" || got.Spec.BinaryVersion != "1.37.2" ||
			got.Spec.EmulationVersion != "1.37.0" || got.Spec.Strategy != v1.OldestEmulationVersion || got.Spec.RenewTime == nil {
			t.Errorf("created candidate %+v", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the candidate was never created")
	}
	for typ, ok := range waiter.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Errorf("cache for %v did not sync", typ)
		}
	}
}

// TestLeaseCandidateWithFakeClientset runs a LeaseCandidate on a fake
// clientset, which serves no watch-list streams: the candidate's informer
// must list and watch instead of waiting for an initial-events bookmark.
func TestLeaseCandidateWithFakeClientset(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs := fake.NewSimpleClientset()
	lc, _, err := NewCandidate(cs, "ns", "me", "kube-scheduler", "1.37.2", "1.37.0", v1.OldestEmulationVersion)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); lc.Run(ctx) }()
	defer func() { cancel(); <-done }()
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 20*time.Second, true, func(ctx context.Context) (bool, error) {
		got, err := cs.CoordinationV1beta1().LeaseCandidates("ns").Get(ctx, "me", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return err == nil && got.Spec.RenewTime != nil && got.Spec.LeaseName == "kube-scheduler", err
	})
	if err != nil {
		t.Fatalf("the candidate never created its LeaseCandidate: %v", err)
	}
}
