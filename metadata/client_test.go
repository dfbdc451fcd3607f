package metadata

import (
	"bytes"
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

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/rest"
)

var (
	podsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	widgetsGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
)

const (
	protobufObjectMetadata = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
	jsonObjectMetadata     = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
	jsonListMetadata       = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"
)

// serverScheme holds what the test API server encodes: the meta.k8s.io
// kinds and, for servers that cannot transform, core/v1 pods.
var serverScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, metav1.SchemeGroupVersion)
	if err := metav1.AddMetaToScheme(s); err != nil {
		panic(err)
	}
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

var serverProtobuf = protobuf.NewSerializer(serverScheme, serverScheme)

// serverProtobufFrames encodes watch event frames: raw protobuf, without the
// envelope of whole objects, as kube-apiserver sends them.
var serverProtobufFrames = protobuf.NewRawSerializer(serverScheme, serverScheme)

func partial(ns, name, rv string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: map[string]string{"app": "web"}, UID: types.UID("uid-" + name)},
	}
}

func encodeProtobuf(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := serverProtobuf.Encode(obj, &buf); err != nil {
		t.Fatalf("encoding %T as protobuf: %v", obj, err)
	}
	return buf.Bytes()
}

// seen records the requests of a test server.
type seen struct {
	mu       sync.Mutex
	requests []*http.Request
	bodies   [][]byte
}

func (s *seen) add(r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
	s.bodies = append(s.bodies, body)
}

func (s *seen) last(t *testing.T) (*http.Request, []byte) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == 0 {
		t.Fatal("server saw no request")
	}
	return s.requests[len(s.requests)-1], s.bodies[len(s.bodies)-1]
}

// newAPIServer serves pods in protobuf, as kube-apiserver does for built-in
// kinds, and widgets (a custom resource) in JSON only, both transformed to
// object metadata when asked. Other paths exercise servers that cannot
// transform and error answers.
func newAPIServer(t *testing.T) (*httptest.Server, *seen) {
	t.Helper()
	rec := &seen{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.add(r)
		accept := r.Header.Get("Accept")
		writeJSON := func(contentType string, status int, body string) {
			w.Header().Set("Content-Type", contentType)
			w.WriteHeader(status)
			io.WriteString(w, body)
		}
		switch {
		case !strings.Contains(accept, "as=PartialObjectMetadata") && r.Method == http.MethodGet:
			writeJSON("application/json", http.StatusNotAcceptable, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotAcceptable","code":406}`)

		case r.URL.Path == "/api/v1/namespaces/ns/pods" && r.URL.Query().Get("watch") == "true":
			w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf;stream=watch")
			w.WriteHeader(http.StatusOK)
			enc := streaming.NewEncoder(protobuf.LengthDelimitedFramer.NewFrameWriter(w), serverProtobufFrames)
			for i, typ := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
				raw := encodeProtobuf(t, partial("ns", "p1", string(rune('1'+i))))
				if err := enc.Encode(&metav1.WatchEvent{Type: string(typ), Object: runtime.RawExtension{Raw: raw}}); err != nil {
					t.Errorf("encoding watch event: %v", err)
				}
			}
		case r.URL.Path == "/api/v1/namespaces/ns/pods":
			list := &metav1.PartialObjectMetadataList{
				TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadataList"},
				ListMeta: metav1.ListMeta{ResourceVersion: "10"},
				Items:    []metav1.PartialObjectMetadata{*partial("ns", "p1", "3"), *partial("ns", "p2", "4")},
			}
			w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")
			w.Write(encodeProtobuf(t, list))
		case r.URL.Path == "/api/v1/namespaces/ns/pods/p1":
			w.Header().Set("Content-Type", protobufObjectMetadata)
			w.Write(encodeProtobuf(t, partial("ns", "p1", "3")))
		case r.URL.Path == "/api/v1/namespaces/ns/pods/full-protobuf":
			// A server that ignores the transformation and sends a Pod in
			// protobuf: the client cannot extract metadata from it.
			w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf")
			pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: metav1.ObjectMeta{Name: "full-protobuf"}}
			w.Write(encodeProtobuf(t, pod))

		case r.URL.Path == "/apis/example.com/v1/namespaces/ns/widgets" && r.URL.Query().Get("watch") == "true":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			obj, _ := json.Marshal(partial("ns", "w1", "5"))
			json.NewEncoder(w).Encode(map[string]interface{}{"type": "ADDED", "object": json.RawMessage(obj)})
		case r.URL.Path == "/apis/example.com/v1/namespaces/ns/widgets":
			if r.Method == http.MethodDelete {
				writeJSON("application/json", http.StatusOK, `{"kind":"Status","apiVersion":"v1","status":"Success"}`)
				return
			}
			writeJSON(jsonListMetadata, http.StatusOK, `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"11"},
				"items":[{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"w1","namespace":"ns"}}]}`)
		case r.URL.Path == "/apis/example.com/v1/namespaces/ns/widgets/w1":
			if r.Method == http.MethodDelete {
				writeJSON("application/json", http.StatusOK, `{"kind":"Status","apiVersion":"v1","status":"Success"}`)
				return
			}
			writeJSON(jsonObjectMetadata, http.StatusOK, `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"w1","namespace":"ns","resourceVersion":"6","labels":{"patched":"yes"}}}`)
		case r.URL.Path == "/apis/example.com/v1/namespaces/ns/widgets/missing":
			writeJSON("application/json", http.StatusNotFound, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"widgets.example.com \"missing\" not found","details":{"name":"missing","group":"example.com","kind":"widgets"}}`)

		case r.URL.Path == "/apis/old.example.com/v1/namespaces/ns/gadgets/g1":
			// An aggregated server that cannot transform: full object.
			writeJSON("application/json", http.StatusOK, `{"apiVersion":"old.example.com/v1","kind":"Gadget","metadata":{"name":"g1","namespace":"ns","uid":"u-g1"},"spec":{"x":1}}`)
		case r.URL.Path == "/apis/old.example.com/v1/namespaces/ns/gadgets/notmeta":
			writeJSON("application/json", http.StatusOK, `{"apiVersion":"old.example.com/v1","kind":"Gadget","spec":{"x":1}}`)
		case r.URL.Path == "/apis/old.example.com/v1/namespaces/ns/gadgets":
			writeJSON("application/json", http.StatusOK, `{"apiVersion":"old.example.com/v1","kind":"GadgetList","metadata":{"resourceVersion":"12"},"items":[{"metadata":{"name":"g1"},"spec":{"x":1}}]}`)
		case r.URL.Path == "/apis/old.example.com/v1/namespaces/ns/tables/t1":
			writeJSON("application/json", http.StatusOK, `{"apiVersion":"meta.k8s.io/v1","kind":"Table","columnDefinitions":[],"rows":[]}`)
		default:
			writeJSON("application/json", http.StatusNotFound, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

func newClient(t *testing.T, host string) Interface {
	t.Helper()
	c, err := NewForConfig(&rest.Config{Host: host})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGetAsksForObjectMetadata(t *testing.T) {
	srv, rec := newAPIServer(t)
	c := newClient(t, srv.URL)
	tests := []struct {
		name     string
		resource schema.GroupVersionResource
		objName  string
		wantRV   string
	}{
		{"built-in resource over protobuf", podsGVR, "p1", "3"},
		{"custom resource over JSON", widgetsGVR, "w1", "6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Resource(tc.resource).Namespace("ns").Get(context.Background(), tc.objName, metav1.GetOptions{ResourceVersion: "0"})
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tc.objName || got.ResourceVersion != tc.wantRV || got.Namespace != "ns" {
				t.Errorf("got %+v", got.ObjectMeta)
			}
			req, _ := rec.last(t)
			if req.Header.Get("Accept") != acceptObjectMetadata {
				t.Errorf("Accept = %q", req.Header.Get("Accept"))
			}
			if req.URL.RawQuery != "resourceVersion=0" {
				t.Errorf("query = %q", req.URL.RawQuery)
			}
		})
	}
}

func TestListDecodesMetadataLists(t *testing.T) {
	srv, rec := newAPIServer(t)
	c := newClient(t, srv.URL)

	pods, err := c.Resource(podsGVR).Namespace("ns").List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	if pods.ResourceVersion != "10" || len(pods.Items) != 2 || pods.Items[1].Name != "p2" || pods.Items[0].Labels["app"] != "web" {
		t.Errorf("protobuf list = %+v", pods)
	}
	req, _ := rec.last(t)
	if req.Header.Get("Accept") != acceptListMetadata || req.URL.RawQuery != "labelSelector=app%3Dweb" {
		t.Errorf("Accept %q, query %q", req.Header.Get("Accept"), req.URL.RawQuery)
	}

	widgets, err := c.Resource(widgetsGVR).Namespace("ns").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if widgets.ResourceVersion != "11" || len(widgets.Items) != 1 || widgets.Items[0].Name != "w1" {
		t.Errorf("JSON list = %+v", widgets)
	}
}

func TestWatchDecodesObjectMetadataEvents(t *testing.T) {
	srv, rec := newAPIServer(t)
	c := newClient(t, srv.URL)
	timeout := int64(30)

	w, err := c.Resource(podsGVR).Namespace("ns").Watch(context.Background(), metav1.ListOptions{ResourceVersion: "2", TimeoutSeconds: &timeout})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	req, _ := rec.last(t)
	if req.Header.Get("Accept") != acceptObjectMetadata || req.URL.Query().Get("watch") != "true" || req.URL.Query().Get("resourceVersion") != "2" {
		t.Errorf("watch request: Accept %q, query %q", req.Header.Get("Accept"), req.URL.RawQuery)
	}
	for i, typ := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
		ev := nextEvent(t, w)
		m, ok := ev.Object.(*metav1.PartialObjectMetadata)
		if ev.Type != typ || !ok || m.Name != "p1" || m.ResourceVersion != string(rune('1'+i)) {
			t.Fatalf("event %d: %s %#v", i, ev.Type, ev.Object)
		}
	}

	jw, err := c.Resource(widgetsGVR).Namespace("ns").Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer jw.Stop()
	ev := nextEvent(t, jw)
	if m, ok := ev.Object.(*metav1.PartialObjectMetadata); ev.Type != watch.Added || !ok || m.Name != "w1" {
		t.Fatalf("JSON watch event: %s %#v", ev.Type, ev.Object)
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

func TestServersThatCannotTransform(t *testing.T) {
	srv, _ := newAPIServer(t)
	c := newClient(t, srv.URL)
	gadgets := schema.GroupVersionResource{Group: "old.example.com", Version: "v1", Resource: "gadgets"}
	tables := schema.GroupVersionResource{Group: "old.example.com", Version: "v1", Resource: "tables"}
	ctx := context.Background()

	got, err := c.Resource(gadgets).Namespace("ns").Get(ctx, "g1", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("full JSON object: %v", err)
	}
	if got.Name != "g1" || got.UID != "u-g1" || got.Kind != "" || got.APIVersion != "" {
		t.Errorf("metadata extracted from the full object: %+v", got)
	}
	list, err := c.Resource(gadgets).Namespace("ns").List(ctx, metav1.ListOptions{})
	if err != nil || list.ResourceVersion != "12" || len(list.Items) != 1 || list.Items[0].Name != "g1" {
		t.Errorf("full JSON list: %+v, %v", list, err)
	}

	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"JSON that is not an object", func() error {
			_, err := c.Resource(gadgets).Namespace("ns").Get(ctx, "notmeta", metav1.GetOptions{})
			return err
		}, "does not appear to match the ObjectMeta schema"},
		{"known kind that is not metadata", func() error {
			_, err := c.Resource(tables).Namespace("ns").Get(ctx, "t1", metav1.GetOptions{})
			return err
		}, "expected *v1.PartialObjectMetadata but got *v1.Table"},
		{"full object in protobuf", func() error {
			_, err := c.Resource(podsGVR).Namespace("ns").Get(ctx, "full-protobuf", metav1.GetOptions{})
			return err
		}, "unable to decode returned object as *v1.PartialObjectMetadata"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestErrorsAreStatusErrors(t *testing.T) {
	srv, _ := newAPIServer(t)
	_, err := newClient(t, srv.URL).Resource(widgetsGVR).Namespace("ns").Get(context.Background(), "missing", metav1.GetOptions{})
	var statusErr *apierrors.StatusError
	if !errors.As(err, &statusErr) || !apierrors.IsNotFound(err) || statusErr.ErrStatus.Details == nil || statusErr.ErrStatus.Details.Name != "missing" {
		t.Fatalf("got %T %v, want a NotFound StatusError with details", err, err)
	}
}

func TestPatchAndDelete(t *testing.T) {
	srv, rec := newAPIServer(t)
	c := newClient(t, srv.URL).Resource(widgetsGVR).Namespace("ns")
	ctx := context.Background()

	got, err := c.Patch(ctx, "w1", types.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}}}`), metav1.PatchOptions{FieldManager: "me"})
	if err != nil || got.Labels["patched"] != "yes" {
		t.Fatalf("patch: %+v, %v", got, err)
	}
	req, body := rec.last(t)
	if req.Method != "PATCH" || req.Header.Get("Content-Type") != "application/merge-patch+json" || req.Header.Get("Accept") != acceptObjectMetadata ||
		req.URL.RawQuery != "fieldManager=me" || !strings.Contains(string(body), "patched") {
		t.Errorf("patch request: %s %v %q %q", req.Method, req.Header, req.URL.RawQuery, body)
	}

	grace := int64(5)
	if err := c.Delete(ctx, "w1", metav1.DeleteOptions{GracePeriodSeconds: &grace}); err != nil {
		t.Fatal(err)
	}
	req, body = rec.last(t)
	var sent map[string]interface{}
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatalf("delete body is not JSON: %q", body)
	}
	if req.Method != "DELETE" || req.Header.Get("Content-Type") != "application/json" ||
		sent["kind"] != "DeleteOptions" || sent["apiVersion"] != "v1" || sent["gracePeriodSeconds"] != float64(5) {
		t.Errorf("delete request: %s Content-Type %q body %v", req.Method, req.Header.Get("Content-Type"), sent)
	}

	if err := c.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "a=b"}); err != nil {
		t.Fatal(err)
	}
	req, _ = rec.last(t)
	if req.Method != "DELETE" || req.URL.Path != "/apis/example.com/v1/namespaces/ns/widgets" || req.URL.RawQuery != "labelSelector=a%3Db" || req.Header.Get("Content-Type") != "application/json" {
		t.Errorf("delete collection request: %s %s?%s", req.Method, req.URL.Path, req.URL.RawQuery)
	}

	for name, err := range map[string]error{
		"get":    func() error { _, err := c.Get(ctx, "", metav1.GetOptions{}); return err }(),
		"patch":  func() error { _, err := c.Patch(ctx, "", types.MergePatchType, nil, metav1.PatchOptions{}); return err }(),
		"delete": c.Delete(ctx, "", metav1.DeleteOptions{}),
	} {
		if err == nil || err.Error() != "name is required" {
			t.Errorf("%s without a name: %v", name, err)
		}
	}
}

func TestConfigFor(t *testing.T) {
	in := &rest.Config{Host: "https://example.invalid", UserAgent: "mine"}
	got := ConfigFor(in)
	if got == in || got.AcceptContentTypes != "application/vnd.kubernetes.protobuf,application/json" ||
		got.ContentType != "application/vnd.kubernetes.protobuf" || got.NegotiatedSerializer == nil || got.UserAgent != "mine" {
		t.Errorf("ConfigFor = %+v", got)
	}
	if in.NegotiatedSerializer != nil || in.ContentType != "" {
		t.Error("ConfigFor changed its input")
	}
	if _, err := NewForConfig(&rest.Config{Host: "http://a b"}); err == nil {
		t.Error("NewForConfig accepted a bad host")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("NewForConfigOrDie did not panic")
			}
		}()
		NewForConfigOrDie(&rest.Config{Host: "http://a b"})
	}()
	srv, _ := newAPIServer(t)
	c, err := NewForConfigAndClient(&rest.Config{Host: srv.URL}, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Resource(podsGVR).Namespace("ns").Get(context.Background(), "p1", metav1.GetOptions{}); err != nil {
		t.Error(err)
	}
}
