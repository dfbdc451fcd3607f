package v1beta1_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	policy "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	typedpolicy "github.com/kubeclient/client-go/kubernetes/typed/policy/v1beta1"
	"github.com/kubeclient/client-go/rest"
)

// TestEvict: an eviction is posted to the eviction subresource of the core
// v1 pod it names, in the eviction's namespace, whatever the client's
// namespace.
func TestEvict(t *testing.T) {
	seen := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Method + " " + r.URL.Path
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}))
	defer srv.Close()
	c, err := typedpolicy.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	eviction := &policy.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"}}
	if err := c.Evictions("other").Evict(context.Background(), eviction); err != nil {
		t.Fatal(err)
	}
	if got, want := <-seen, "POST /api/v1/namespaces/ns/pods/web/eviction"; got != want {
		t.Errorf("request = %q, want %q", got, want)
	}
}
