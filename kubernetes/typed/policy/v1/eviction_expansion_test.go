package v1_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	typedpolicyv1 "github.com/kubeclient/client-go/kubernetes/typed/policy/v1"
	typedpolicyv1beta1 "github.com/kubeclient/client-go/kubernetes/typed/policy/v1beta1"
	"github.com/kubeclient/client-go/rest"
)

// TestEvict: in both policy versions an eviction is posted to the eviction
// subresource of the core v1 pod it names, in the eviction's namespace,
// whatever the client's namespace.
func TestEvict(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "web", Namespace: "ns"}
	tests := map[string]func(ctx context.Context, config *rest.Config) error{
		"v1": func(ctx context.Context, config *rest.Config) error {
			c, err := typedpolicyv1.NewForConfig(config)
			if err != nil {
				return err
			}
			return c.Evictions("other").Evict(ctx, &policyv1.Eviction{ObjectMeta: meta})
		},
		"v1beta1": func(ctx context.Context, config *rest.Config) error {
			c, err := typedpolicyv1beta1.NewForConfig(config)
			if err != nil {
				return err
			}
			return c.Evictions("other").Evict(ctx, &policyv1beta1.Eviction{ObjectMeta: meta})
		},
	}
	for version, evict := range tests {
		t.Run(version, func(t *testing.T) {
			seen := make(chan string, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				seen <- r.Method + " " + r.URL.Path
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
			}))
			defer srv.Close()
			if err := evict(context.Background(), &rest.Config{Host: srv.URL}); err != nil {
				t.Fatal(err)
			}
			if got, want := <-seen, "POST /api/v1/namespaces/ns/pods/web/eviction"; got != want {
				t.Errorf("request = %q, want %q", got, want)
			}
		})
	}
}
