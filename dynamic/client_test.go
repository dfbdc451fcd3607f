package dynamic

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/rest"
)

var (
	podsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	widgetsGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
)

// seenRequest is what the test server recorded of one request.
type seenRequest struct {
	method, path, query, contentType, accept string
	body                                     map[string]interface{}
}

// recordingServer answers every request with status and body (JSON) and
// records the request.
type recordingServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []seenRequest
}

func newRecordingServer(t *testing.T, status int, body string) *recordingServer {
	t.Helper()
	s := &recordingServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		req := seenRequest{
			method: r.Method, path: r.URL.Path, query: r.URL.RawQuery,
			contentType: r.Header.Get("Content-Type"), accept: r.Header.Get("Accept"),
		}
		if len(data) > 0 {
			if err := json.Unmarshal(data, &req.body); err != nil {
				t.Errorf("request body is not JSON: %v: %q", err, data)
			}
		}
		s.mu.Lock()
		s.seen = append(s.seen, req)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *recordingServer) last(t *testing.T) seenRequest {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		t.Fatal("server saw no request")
	}
	return s.seen[len(s.seen)-1]
}

func newClient(t *testing.T, host string) *DynamicClient {
	t.Helper()
	c, err := NewForConfig(&rest.Config{Host: host})
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	return c
}

func widget(ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]interface{}{"name": name},
		"spec":       map[string]interface{}{"size": int64(3)},
	}}
	if ns != "" {
		u.SetNamespace(ns)
	}
	return u
}

const widgetJSON = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"ns","resourceVersion":"7"},"spec":{"size":3}}`

func TestVerbsSendTheRightRequest(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name        string
		call        func(c *DynamicClient) (*unstructured.Unstructured, error)
		method      string
		path        string
		query       string
		contentType string
		bodyKind    string // kind expected in the request body; "" for none
	}{
		{
			name: "create namespaced CRD",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(widgetsGVR).Namespace("ns").Create(ctx, widget("ns", "w1"), metav1.CreateOptions{FieldManager: "me"})
			},
			method: "POST", path: "/apis/example.com/v1/namespaces/ns/widgets", query: "fieldManager=me",
			contentType: "application/json", bodyKind: "Widget",
		},
		{
			name: "create on subresource posts to the named object",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(podsGVR).Namespace("ns").Create(ctx, widget("ns", "w1"), metav1.CreateOptions{}, "binding")
			},
			method: "POST", path: "/api/v1/namespaces/ns/pods/w1/binding", contentType: "application/json", bodyKind: "Widget",
		},
		{
			name: "update cluster scoped",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(widgetsGVR).Update(ctx, widget("", "w1"), metav1.UpdateOptions{DryRun: []string{"All"}})
			},
			method: "PUT", path: "/apis/example.com/v1/widgets/w1", query: "dryRun=All", contentType: "application/json", bodyKind: "Widget",
		},
		{
			name: "update status",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(widgetsGVR).Namespace("ns").UpdateStatus(ctx, widget("ns", "w1"), metav1.UpdateOptions{})
			},
			method: "PUT", path: "/apis/example.com/v1/namespaces/ns/widgets/w1/status", contentType: "application/json", bodyKind: "Widget",
		},
		{
			name: "get core resource with resourceVersion",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(podsGVR).Namespace("ns").Get(ctx, "w1", metav1.GetOptions{ResourceVersion: "5"})
			},
			method: "GET", path: "/api/v1/namespaces/ns/pods/w1", query: "resourceVersion=5",
		},
		{
			name: "get subresource",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(widgetsGVR).Namespace("ns").Get(ctx, "w1", metav1.GetOptions{}, "scale")
			},
			method: "GET", path: "/apis/example.com/v1/namespaces/ns/widgets/w1/scale",
		},
		{
			name: "merge patch",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(widgetsGVR).Namespace("ns").Patch(ctx, "w1", types.MergePatchType, []byte(`{"kind":"Widget","spec":{"size":4}}`), metav1.PatchOptions{FieldManager: "me"})
			},
			method: "PATCH", path: "/apis/example.com/v1/namespaces/ns/widgets/w1", query: "fieldManager=me",
			contentType: "application/merge-patch+json", bodyKind: "Widget",
		},
		{
			name: "apply",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(widgetsGVR).Namespace("ns").Apply(ctx, "w1", widget("ns", "w1"), metav1.ApplyOptions{FieldManager: "me", Force: true})
			},
			method: "PATCH", path: "/apis/example.com/v1/namespaces/ns/widgets/w1", query: "fieldManager=me&force=true",
			contentType: "application/apply-patch+yaml", bodyKind: "Widget",
		},
		{
			name: "apply status",
			call: func(c *DynamicClient) (*unstructured.Unstructured, error) {
				return c.Resource(widgetsGVR).Namespace("ns").ApplyStatus(ctx, "w1", widget("ns", "w1"), metav1.ApplyOptions{FieldManager: "me"})
			},
			method: "PATCH", path: "/apis/example.com/v1/namespaces/ns/widgets/w1/status", query: "fieldManager=me&force=false",
			contentType: "application/apply-patch+yaml", bodyKind: "Widget",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRecordingServer(t, http.StatusOK, widgetJSON)
			got, err := tc.call(newClient(t, srv.URL))
			if err != nil {
				t.Fatalf("call failed: %v", err)
			}
			if got.GetName() != "w1" || got.GetResourceVersion() != "7" || got.GetKind() != "Widget" {
				t.Errorf("decoded %v", got.Object)
			}
			if size, _, _ := unstructured.NestedInt64(got.Object, "spec", "size"); size != 3 {
				t.Errorf("spec.size = %d, want 3", size)
			}
			req := srv.last(t)
			if req.method != tc.method || req.path != tc.path || req.query != tc.query {
				t.Errorf("server saw %s %s?%s, want %s %s?%s", req.method, req.path, req.query, tc.method, tc.path, tc.query)
			}
			if req.accept != "application/json" {
				t.Errorf("Accept = %q, want application/json", req.accept)
			}
			if tc.contentType != "" && req.contentType != tc.contentType {
				t.Errorf("Content-Type = %q, want %q", req.contentType, tc.contentType)
			}
			if kind, _ := req.body["kind"].(string); kind != tc.bodyKind {
				t.Errorf("body kind = %q, want %q (body %v)", kind, tc.bodyKind, req.body)
			}
		})
	}
}

func TestDeleteSendsDeleteOptionsBody(t *testing.T) {
	ctx := context.Background()
	srv := newRecordingServer(t, http.StatusOK, `{"kind":"Status","apiVersion":"v1","status":"Success"}`)
	c := newClient(t, srv.URL)
	policy := metav1.DeletePropagationForeground
	if err := c.Resource(widgetsGVR).Namespace("ns").Delete(ctx, "w1", metav1.DeleteOptions{PropagationPolicy: &policy}); err != nil {
		t.Fatal(err)
	}
	req := srv.last(t)
	if req.method != "DELETE" || req.path != "/apis/example.com/v1/namespaces/ns/widgets/w1" {
		t.Errorf("server saw %s %s", req.method, req.path)
	}
	if req.body["kind"] != "DeleteOptions" || req.body["apiVersion"] != "v1" || req.body["propagationPolicy"] != "Foreground" {
		t.Errorf("delete body = %v", req.body)
	}

	if err := c.Resource(widgetsGVR).Namespace("ns").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=web"}); err != nil {
		t.Fatal(err)
	}
	req = srv.last(t)
	if req.method != "DELETE" || req.path != "/apis/example.com/v1/namespaces/ns/widgets" || req.query != "labelSelector=app%3Dweb" {
		t.Errorf("server saw %s %s?%s", req.method, req.path, req.query)
	}
	if req.body["kind"] != "DeleteOptions" {
		t.Errorf("delete collection body = %v", req.body)
	}
}

func TestListDecodesItemsWithTheListKind(t *testing.T) {
	const list = `{"apiVersion":"example.com/v1","kind":"WidgetList","metadata":{"resourceVersion":"42","continue":"next"},
		"items":[{"metadata":{"name":"a","namespace":"ns"}},{"metadata":{"name":"b","namespace":"ns"},"spec":{"size":2}}]}`
	srv := newRecordingServer(t, http.StatusOK, list)
	got, err := newClient(t, srv.URL).Resource(widgetsGVR).Namespace("ns").List(context.Background(), metav1.ListOptions{Limit: 2, FieldSelector: "metadata.name!=c"})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.last(t)
	if req.path != "/apis/example.com/v1/namespaces/ns/widgets" || req.query != "fieldSelector=metadata.name%21%3Dc&limit=2" {
		t.Errorf("server saw %s?%s", req.path, req.query)
	}
	if got.GetResourceVersion() != "42" || got.GetContinue() != "next" || got.GetKind() != "WidgetList" {
		t.Errorf("list metadata: rv=%q continue=%q kind=%q", got.GetResourceVersion(), got.GetContinue(), got.GetKind())
	}
	if len(got.Items) != 2 {
		t.Fatalf("got %d items, want 2", len(got.Items))
	}
	for _, item := range got.Items {
		if item.GetAPIVersion() != "example.com/v1" || item.GetKind() != "Widget" {
			t.Errorf("item %s has apiVersion %q kind %q, want example.com/v1 Widget", item.GetName(), item.GetAPIVersion(), item.GetKind())
		}
	}
}

func TestServerErrorsAreStatusErrors(t *testing.T) {
	const notFound = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"widgets.example.com \"w1\" not found","reason":"NotFound","details":{"name":"w1","group":"example.com","kind":"widgets"},"code":404}`
	srv := newRecordingServer(t, http.StatusNotFound, notFound)
	_, err := newClient(t, srv.URL).Resource(widgetsGVR).Namespace("ns").Get(context.Background(), "w1", metav1.GetOptions{})
	var statusErr *apierrors.StatusError
	if !errors.As(err, &statusErr) || !apierrors.IsNotFound(err) {
		t.Fatalf("got %T %v, want a NotFound StatusError", err, err)
	}
	if statusErr.ErrStatus.Details == nil || statusErr.ErrStatus.Details.Name != "w1" {
		t.Errorf("details lost: %+v", statusErr.ErrStatus)
	}

	conflict := `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Conflict","code":409,"message":"the object has been modified"}`
	srv = newRecordingServer(t, http.StatusConflict, conflict)
	_, err = newClient(t, srv.URL).Resource(widgetsGVR).Namespace("ns").Update(context.Background(), widget("ns", "w1"), metav1.UpdateOptions{})
	if !apierrors.IsConflict(err) {
		t.Fatalf("got %v, want a Conflict", err)
	}
}

func TestBadInputIsRejectedBeforeSending(t *testing.T) {
	srv := newRecordingServer(t, http.StatusOK, widgetJSON)
	c := newClient(t, srv.URL)
	ctx := context.Background()
	withManagedFields := widget("ns", "w1")
	withManagedFields.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "other"}})
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"get without name", func() error { _, err := c.Resource(widgetsGVR).Get(ctx, "", metav1.GetOptions{}); return err }, "name is required"},
		{"delete without name", func() error { return c.Resource(widgetsGVR).Delete(ctx, "", metav1.DeleteOptions{}) }, "name is required"},
		{"update without name", func() error {
			_, err := c.Resource(widgetsGVR).Update(ctx, widget("", ""), metav1.UpdateOptions{})
			return err
		}, "name is required"},
		{"create subresource without name", func() error {
			_, err := c.Resource(widgetsGVR).Create(ctx, widget("", ""), metav1.CreateOptions{}, "status")
			return err
		}, "name is required"},
		{"nil object", func() error { _, err := c.Resource(widgetsGVR).Create(ctx, nil, metav1.CreateOptions{}); return err }, "object is required"},
		{"bad namespace", func() error {
			_, err := c.Resource(widgetsGVR).Namespace("a/b").List(ctx, metav1.ListOptions{})
			return err
		}, `invalid namespace "a/b"`},
		{"bad name", func() error { _, err := c.Resource(widgetsGVR).Get(ctx, "..", metav1.GetOptions{}); return err }, `invalid resource name ".."`},
		{"apply with managed fields", func() error {
			_, err := c.Resource(widgetsGVR).Namespace("ns").Apply(ctx, "w1", withManagedFields, metav1.ApplyOptions{FieldManager: "me"})
			return err
		}, "managed fields"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.seen) != 0 {
		t.Errorf("bad input reached the server: %+v", srv.seen)
	}
}

func TestWatchDecodesUnstructuredEvents(t *testing.T) {
	var query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		enc := json.NewEncoder(w)
		enc.Encode(map[string]interface{}{"type": "ADDED", "object": json.RawMessage(widgetJSON)})
		enc.Encode(map[string]interface{}{"type": "DELETED", "object": json.RawMessage(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w2","namespace":"ns","resourceVersion":"9"}}`)})
		enc.Encode(map[string]interface{}{"type": "ERROR", "object": json.RawMessage(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410,"message":"too old"}`)})
	}))
	defer srv.Close()

	w, err := newClient(t, srv.URL).Resource(widgetsGVR).Namespace("ns").Watch(context.Background(), metav1.ListOptions{ResourceVersion: "6"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if query != "resourceVersion=6&watch=true" {
		t.Errorf("watch query = %q", query)
	}
	want := []struct {
		typ  watch.EventType
		name string
	}{{watch.Added, "w1"}, {watch.Deleted, "w2"}}
	for _, exp := range want {
		ev := nextEvent(t, w)
		u, ok := ev.Object.(*unstructured.Unstructured)
		if ev.Type != exp.typ || !ok || u.GetName() != exp.name {
			t.Fatalf("got %s %T %v, want %s %s", ev.Type, ev.Object, ev.Object, exp.typ, exp.name)
		}
	}
	ev := nextEvent(t, w)
	if status, ok := ev.Object.(*metav1.Status); ev.Type != watch.Error || !ok || status.Code != 410 {
		t.Fatalf("got %s %#v, want an ERROR event with a 410 Status", ev.Type, ev.Object)
	}
}

func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed early")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event within 10s")
	}
	return watch.Event{}
}

func TestConfigForAndConstructors(t *testing.T) {
	in := &rest.Config{Host: "https://example.invalid"}
	in.ContentType = "application/vnd.kubernetes.protobuf"
	got := ConfigFor(in)
	if got == in {
		t.Fatal("ConfigFor must return a copy")
	}
	if got.ContentType != "application/json" || got.AcceptContentTypes != "application/json" {
		t.Errorf("content types %q / %q, want JSON", got.ContentType, got.AcceptContentTypes)
	}
	if got.NegotiatedSerializer == nil || got.UserAgent == "" {
		t.Errorf("serializer %v, user agent %q", got.NegotiatedSerializer, got.UserAgent)
	}
	if in.ContentType != "application/vnd.kubernetes.protobuf" || in.NegotiatedSerializer != nil {
		t.Error("ConfigFor modified its input")
	}

	if _, err := NewForConfig(&rest.Config{Host: "http://a b"}); err == nil {
		t.Error("NewForConfig accepted a bad host")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("NewForConfigOrDie did not panic on a bad host")
			}
		}()
		NewForConfigOrDie(&rest.Config{Host: "http://a b"})
	}()

	srv := newRecordingServer(t, http.StatusOK, widgetJSON)
	viaClient, err := NewForConfigAndClient(&rest.Config{Host: srv.URL}, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	restClient, err := rest.UnversionedRESTClientFor(func() *rest.Config {
		c := ConfigFor(&rest.Config{Host: srv.URL})
		return c
	}())
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]Interface{"NewForConfigAndClient": viaClient, "New": New(restClient), "OrDie": NewForConfigOrDie(&rest.Config{Host: srv.URL})} {
		if _, err := c.Resource(widgetsGVR).Namespace("ns").Get(context.Background(), "w1", metav1.GetOptions{}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if p := srv.last(t).path; p != "/apis/example.com/v1/namespaces/ns/widgets/w1" {
			t.Errorf("%s: path %q", name, p)
		}
	}
}

func TestLegacyAPIPathResolverFunc(t *testing.T) {
	if got := LegacyAPIPathResolverFunc(schema.GroupVersionKind{Version: "v1", Kind: "Pod"}); got != "/api" {
		t.Errorf("core group: %q", got)
	}
	if got := LegacyAPIPathResolverFunc(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}); got != "/apis" {
		t.Errorf("named group: %q", got)
	}
}
