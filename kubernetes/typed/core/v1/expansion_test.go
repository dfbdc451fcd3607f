package v1_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedcorev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	"github.com/kubeclient/client-go/rest"
)

type seenRequest struct {
	method, path, query, contentType, body string
}

// recorder answers every request with obj (JSON) and records it.
type recorder struct {
	t   *testing.T
	obj runtime.Object
	gv  schema.GroupVersion

	mu   sync.Mutex // guards seen
	seen []seenRequest
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.seen = append(rec.seen, seenRequest{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), string(body)})
	rec.mu.Unlock()
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), "application/json")
	w.Header().Set("Content-Type", "application/json")
	if err := scheme.Codecs.EncoderForVersion(info.Serializer, rec.gv).Encode(rec.obj, w); err != nil {
		rec.t.Errorf("encode: %v", err)
	}
}

func (rec *recorder) last() seenRequest {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.seen[len(rec.seen)-1]
}

func (rec *recorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.seen)
}

func newCore(t *testing.T, obj runtime.Object) (*typedcorev1.CoreV1Client, *recorder) {
	rec := &recorder{t: t, obj: obj, gv: corev1.SchemeGroupVersion}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	c, err := typedcorev1.NewForConfig(&rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	return c, rec
}

func TestPodExpansions(t *testing.T) {
	ok := &metav1.Status{Status: metav1.StatusSuccess}
	ctx := context.Background()
	tests := []struct {
		name   string
		call   func(pods typedcorev1.PodInterface) error
		method string
		path   string
		query  string
	}{
		{"Bind", func(p typedcorev1.PodInterface) error {
			return p.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Target: corev1.ObjectReference{Name: "node1"}}, metav1.CreateOptions{DryRun: []string{"All"}})
		}, "POST", "/api/v1/namespaces/ns/pods/web/binding", "dryRun=All"},
		{"EvictV1", func(p typedcorev1.PodInterface) error {
			return p.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"}})
		}, "POST", "/api/v1/namespaces/ns/pods/web/eviction", ""},
		{"GetLogs", func(p typedcorev1.PodInterface) error {
			_, err := p.GetLogs("web", &corev1.PodLogOptions{Container: "app", Follow: true}).DoRaw(ctx)
			return err
		}, "GET", "/api/v1/namespaces/ns/pods/web/log", "container=app&follow=true"},
		{"ProxyGet", func(p typedcorev1.PodInterface) error {
			_, err := p.ProxyGet("https", "web", "8443", "healthz", map[string]string{"verbose": "1"}).DoRaw(ctx)
			return err
		}, "GET", "/api/v1/namespaces/ns/pods/https:web:8443/proxy/healthz", "verbose=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, rec := newCore(t, ok)
			if err := tt.call(c.Pods("ns")); err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			got := rec.last()
			if got.method != tt.method || got.path != tt.path || got.query != tt.query {
				t.Errorf("request = %s %s?%s, want %s %s?%s", got.method, got.path, got.query, tt.method, tt.path, tt.query)
			}
		})
	}
}

func TestNodePatchStatusAndNamespaceFinalize(t *testing.T) {
	c, rec := newCore(t, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}})
	node, err := c.Nodes().PatchStatus(context.Background(), "n1", []byte(`{"status":{"phase":"Running"}}`))
	if err != nil || node.Name != "n1" {
		t.Fatalf("PatchStatus: %v %+v", err, node)
	}
	got := rec.last()
	if got.method != "PATCH" || got.path != "/api/v1/nodes/n1/status" || got.contentType != "application/strategic-merge-patch+json" {
		t.Errorf("PatchStatus sent %+v", got)
	}

	c, rec = newCore(t, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}})
	if _, err := c.Namespaces().Finalize(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}}, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("Finalize: %v", err)
	}
	if got := rec.last(); got.method != "PUT" || got.path != "/api/v1/namespaces/team/finalize" {
		t.Errorf("Finalize sent %+v", got)
	}
}

func TestEventExpansions(t *testing.T) {
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "e1", Namespace: "other"}}
	c, rec := newCore(t, ev)
	// An all-namespaces client writes the event to its own namespace.
	if _, err := c.Events("").CreateWithEventNamespace(ev); err != nil {
		t.Fatalf("CreateWithEventNamespace: %v", err)
	}
	if got := rec.last(); got.method != "POST" || got.path != "/api/v1/namespaces/other/events" {
		t.Errorf("CreateWithEventNamespace sent %+v", got)
	}
	// A client bound to another namespace refuses without a request.
	before := rec.count()
	if _, err := c.Events("ns").UpdateWithEventNamespace(ev); err == nil {
		t.Error("UpdateWithEventNamespace across namespaces succeeded")
	}
	if rec.count() != before {
		t.Error("a refused update still reached the server")
	}
	name, kind := "web", "Pod"
	sel := c.Events("ns").GetFieldSelector(&name, nil, &kind, nil)
	for field, want := range map[string]string{"involvedObject.name": "web", "involvedObject.kind": "Pod"} {
		if got, ok := sel.RequiresExactMatch(field); !ok || got != want {
			t.Errorf("GetFieldSelector(%s) = %q, %v; want %q", field, got, ok, want)
		}
	}
	if _, ok := sel.RequiresExactMatch("involvedObject.namespace"); ok {
		t.Error("GetFieldSelector constrains a nil argument")
	}
	if typedcorev1.GetInvolvedObjectNameFieldLabel("v1") != "involvedObject.name" {
		t.Error("GetInvolvedObjectNameFieldLabel is wrong")
	}
}

func TestServiceAccountCreateToken(t *testing.T) {
	c, rec := newCore(t, &corev1.ServiceAccount{})
	rec.obj = &corev1.ServiceAccount{}
	_, _ = c.ServiceAccounts("ns").CreateToken(context.Background(), "builder", nil, metav1.CreateOptions{})
	if got := rec.last(); got.method != "POST" || got.path != "/api/v1/namespaces/ns/serviceaccounts/builder/token" {
		t.Errorf("CreateToken sent %+v", got)
	}
}

func TestServiceProxyGet(t *testing.T) {
	c, rec := newCore(t, &metav1.Status{Status: metav1.StatusSuccess})
	if _, err := c.Services("ns").ProxyGet("", "db", "5432", "metrics", map[string]string{"a": "1", "b": "2"}).DoRaw(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := rec.last()
	if got.method != "GET" || got.path != "/api/v1/namespaces/ns/services/db:5432/proxy/metrics" || got.query != "a=1&b=2" {
		t.Errorf("request = %s %s?%s", got.method, got.path, got.query)
	}
}
