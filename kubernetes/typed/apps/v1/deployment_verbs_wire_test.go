package v1_test

import (
	"context"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedappsv1 "github.com/kubeclient/client-go/kubernetes/typed/apps/v1"
	"github.com/kubeclient/client-go/rest"
)

const deploymentsPath = "/apis/apps/v1/namespaces/ns/deployments"

// wireFormat is one way the client and the server may agree on bodies.
type wireFormat struct {
	name        string
	contentType string // rest.Config.ContentType
	serverReply string // media type the server answers in, whatever was asked
	wantAccept  string // media type that must come first in Accept
	wantBody    string // Content-Type of object bodies the client sends
}

var wireFormats = []wireFormat{
	{name: "protobuf by default", contentType: "", serverReply: protobufType, wantAccept: protobufType, wantBody: protobufType},
	{name: "protobuf asked, json answered", contentType: "", serverReply: "application/json", wantAccept: protobufType, wantBody: protobufType},
	{name: "json chosen", contentType: "application/json", serverReply: "application/json", wantAccept: "application/json", wantBody: "application/json"},
}

// firstAccepted returns the first media type of an Accept header.
func firstAccepted(accept string) string {
	first, _, _ := strings.Cut(accept, ",")
	mt, _, err := mime.ParseMediaType(strings.TrimSpace(first))
	if err != nil {
		return ""
	}
	return mt
}

// serializerFor returns the scheme's serializer for a media type.
func serializerFor(t *testing.T, mediaType string) runtime.SerializerInfo {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		t.Fatalf("no serializer for %s", mediaType)
	}
	return info
}

// writeObject answers with obj encoded in mediaType at version gv.
func writeObject(t *testing.T, w http.ResponseWriter, mediaType string, status int, obj runtime.Object, gv schema.GroupVersion) {
	info := serializerFor(t, mediaType)
	w.Header().Set("Content-Type", mediaType)
	w.WriteHeader(status)
	if err := scheme.Codecs.EncoderForVersion(info.Serializer, gv).Encode(obj, w); err != nil {
		t.Errorf("encoding the response: %v", err)
	}
}

// writeStatus answers with a metav1.Status error, as kube-apiserver does.
func writeStatus(t *testing.T, w http.ResponseWriter, mediaType string, err *apierrors.StatusError) {
	st := err.Status()
	writeObject(t, w, mediaType, int(st.Code), &st, schema.GroupVersion{Version: "v1"})
}

// newDeploymentClient builds the typed client against ts in format f.
func newDeploymentClient(t *testing.T, ts *httptest.Server, f wireFormat) typedappsv1.DeploymentInterface {
	t.Helper()
	cfg := &rest.Config{Host: ts.URL}
	cfg.ContentType = f.contentType
	client, err := typedappsv1.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	return client.Deployments("ns")
}

// capturedRequest is what a handler saw of one request.
type capturedRequest struct {
	method, path string
	query        url.Values
	accept       string
	contentType  string
	body         []byte
}

func capture(t *testing.T, r *http.Request) capturedRequest {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Errorf("reading the request body: %v", err)
	}
	return capturedRequest{r.Method, r.URL.Path, r.URL.Query(), r.Header.Get("Accept"), r.Header.Get("Content-Type"), body}
}

// oneRequestServer answers one request with handle and hands what it saw to
// the returned channel.
func oneRequestServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, seen capturedRequest)) (*httptest.Server, <-chan capturedRequest) {
	seen := make(chan capturedRequest, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := capture(t, r)
		select {
		case seen <- got:
		default:
			t.Errorf("unexpected extra request %s %s", r.Method, r.URL)
		}
		handle(w, r, got)
	}))
	t.Cleanup(ts.Close)
	return ts, seen
}

func receive(t *testing.T, seen <-chan capturedRequest) capturedRequest {
	t.Helper()
	select {
	case r := <-seen:
		return r
	default:
		t.Fatal("the server saw no request")
		return capturedRequest{}
	}
}

func TestDeploymentWatchWire(t *testing.T) {
	type sent struct {
		typ watch.EventType
		obj runtime.Object
		gv  schema.GroupVersion
	}
	deployment := func(name, rv string) *appsv1.Deployment {
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", ResourceVersion: rv}}
	}
	gone := apierrors.NewResourceExpired("too old resource version: 5 (9)").Status()
	events := []sent{
		{watch.Added, deployment("a", "6"), appsv1.SchemeGroupVersion},
		{watch.Modified, deployment("a", "7"), appsv1.SchemeGroupVersion},
		{watch.Deleted, deployment("b", "8"), appsv1.SchemeGroupVersion},
		{watch.Error, &gone, schema.GroupVersion{Version: "v1"}},
	}

	for _, f := range wireFormats {
		t.Run(f.name, func(t *testing.T) {
			disconnected := make(chan struct{})
			ts, seen := oneRequestServer(t, func(w http.ResponseWriter, r *http.Request, _ capturedRequest) {
				defer close(disconnected)
				info := serializerFor(t, f.serverReply)
				stream := info.StreamSerializer
				contentType := f.serverReply
				if contentType != "application/json" {
					contentType += ";stream=watch"
				}
				w.Header().Set("Content-Type", contentType)
				w.Header().Set("Transfer-Encoding", "chunked")
				w.WriteHeader(http.StatusOK)
				flusher := w.(http.Flusher)
				flusher.Flush()
				frames := stream.Framer.NewFrameWriter(w)
				envelope := streaming.NewEncoder(frames, scheme.Codecs.EncoderForVersion(stream.Serializer, schema.GroupVersion{Version: "v1"}))
				for _, e := range events {
					raw, err := runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, e.gv), e.obj)
					if err != nil {
						t.Errorf("encoding %s object: %v", e.typ, err)
						return
					}
					if err := envelope.Encode(&metav1.WatchEvent{Type: string(e.typ), Object: runtime.RawExtension{Raw: raw}}); err != nil {
						t.Errorf("encoding %s event: %v", e.typ, err)
						return
					}
					flusher.Flush()
				}
				// Keep the stream open until the client goes away.
				<-r.Context().Done()
			})
			deployments := newDeploymentClient(t, ts, f)

			w, err := deployments.Watch(context.Background(), metav1.ListOptions{ResourceVersion: "5", LabelSelector: "app=web"})
			if err != nil {
				t.Fatalf("Watch: %v", err)
			}
			// Stop is idempotent; the deferred call frees the handler when an
			// assertion below ends the test early.
			defer w.Stop()
			req := receive(t, seen)
			if req.method != http.MethodGet || req.path != deploymentsPath {
				t.Errorf("request = %s %s, want GET %s", req.method, req.path, deploymentsPath)
			}
			for param, want := range map[string]string{"watch": "true", "resourceVersion": "5", "labelSelector": "app=web"} {
				if got := req.query.Get(param); got != want {
					t.Errorf("query %s = %q, want %q (query %v)", param, got, want, req.query)
				}
			}
			if got := firstAccepted(req.accept); got != f.wantAccept {
				t.Errorf("Accept = %q, want %q first", req.accept, f.wantAccept)
			}

			timeout := time.NewTimer(10 * time.Second)
			defer timeout.Stop()
			for i, want := range events {
				var got watch.Event
				select {
				case ev, ok := <-w.ResultChan():
					if !ok {
						t.Fatalf("event %d: result channel closed early", i)
					}
					got = ev
				case <-timeout.C:
					t.Fatalf("event %d: timed out", i)
				}
				if got.Type != want.typ {
					t.Fatalf("event %d: type %s, want %s", i, got.Type, want.typ)
				}
				switch wantObj := want.obj.(type) {
				case *appsv1.Deployment:
					d, ok := got.Object.(*appsv1.Deployment)
					if !ok {
						t.Fatalf("event %d: object %T, want *appsv1.Deployment", i, got.Object)
					}
					if d.Name != wantObj.Name || d.ResourceVersion != wantObj.ResourceVersion {
						t.Errorf("event %d: got %s@%s, want %s@%s", i, d.Name, d.ResourceVersion, wantObj.Name, wantObj.ResourceVersion)
					}
				case *metav1.Status:
					st, ok := got.Object.(*metav1.Status)
					if !ok {
						t.Fatalf("event %d: object %T, want *metav1.Status", i, got.Object)
					}
					if st.Code != http.StatusGone || st.Reason != metav1.StatusReasonExpired {
						t.Errorf("event %d: status %d %s, want 410 Expired", i, st.Code, st.Reason)
					}
					if !apierrors.IsResourceExpired(apierrors.FromObject(st)) {
						t.Errorf("event %d: FromObject(%+v) is not ResourceExpired", i, st)
					}
				}
			}

			w.Stop()
			// apimachinery's StreamWatcher may still hand over the error of
			// the read that Stop interrupted (it races done against result),
			// as client-go does; nothing else may arrive before the close.
		drain:
			for {
				select {
				case ev, ok := <-w.ResultChan():
					if !ok {
						break drain
					}
					if ev.Type != watch.Error {
						t.Errorf("a %s event arrived after Stop", ev.Type)
					}
				case <-timeout.C:
					t.Fatal("result channel not closed after Stop")
				}
			}
			select {
			case <-disconnected:
			case <-timeout.C:
				t.Fatal("the server still streams after Stop")
			}
		})
	}
}

func TestDeploymentWatchErrorResponse(t *testing.T) {
	for _, f := range wireFormats {
		t.Run(f.name, func(t *testing.T) {
			ts, _ := oneRequestServer(t, func(w http.ResponseWriter, r *http.Request, _ capturedRequest) {
				writeStatus(t, w, f.serverReply, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "", nil))
			})
			w, err := newDeploymentClient(t, ts, f).Watch(context.Background(), metav1.ListOptions{})
			if !apierrors.IsForbidden(err) {
				t.Errorf("Watch: got %v, want Forbidden", err)
			}
			if w != nil {
				w.Stop()
			}
		})
	}
}

func TestDeploymentDeleteCollectionWire(t *testing.T) {
	background := metav1.DeletePropagationBackground
	foreground := metav1.DeletePropagationForeground
	tests := []struct {
		name     string
		opts     metav1.DeleteOptions
		listOpts metav1.ListOptions
		status   *apierrors.StatusError // answered instead of success
		wantErr  func(error) bool
	}{
		{
			name:     "background by label",
			opts:     metav1.DeleteOptions{PropagationPolicy: &background},
			listOpts: metav1.ListOptions{LabelSelector: "app=web"},
		},
		{
			name:     "foreground dry run by field",
			opts:     metav1.DeleteOptions{PropagationPolicy: &foreground, DryRun: []string{metav1.DryRunAll}},
			listOpts: metav1.ListOptions{LabelSelector: "tier=db", FieldSelector: "metadata.name=x"},
		},
		{
			name:     "forbidden",
			opts:     metav1.DeleteOptions{PropagationPolicy: &background},
			listOpts: metav1.ListOptions{LabelSelector: "app=web"},
			status:   apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "", nil),
			wantErr:  apierrors.IsForbidden,
		},
	}
	for _, f := range wireFormats {
		for _, tt := range tests {
			t.Run(f.name+"/"+tt.name, func(t *testing.T) {
				ts, seen := oneRequestServer(t, func(w http.ResponseWriter, r *http.Request, _ capturedRequest) {
					if tt.status != nil {
						writeStatus(t, w, f.serverReply, tt.status)
						return
					}
					writeObject(t, w, f.serverReply, http.StatusOK, &metav1.Status{Status: metav1.StatusSuccess}, schema.GroupVersion{Version: "v1"})
				})
				err := newDeploymentClient(t, ts, f).DeleteCollection(context.Background(), tt.opts, tt.listOpts)
				switch {
				case tt.wantErr == nil && err != nil:
					t.Fatalf("DeleteCollection: %v", err)
				case tt.wantErr != nil && !tt.wantErr(err):
					t.Fatalf("DeleteCollection: got %v, want the %s error", err, tt.status.Status().Reason)
				}

				req := receive(t, seen)
				if req.method != http.MethodDelete || req.path != deploymentsPath {
					t.Errorf("request = %s %s, want DELETE %s", req.method, req.path, deploymentsPath)
				}
				if got := req.query.Get("labelSelector"); got != tt.listOpts.LabelSelector {
					t.Errorf("labelSelector = %q, want %q", got, tt.listOpts.LabelSelector)
				}
				if got := req.query.Get("fieldSelector"); got != tt.listOpts.FieldSelector {
					t.Errorf("fieldSelector = %q, want %q", got, tt.listOpts.FieldSelector)
				}
				if req.contentType != f.wantBody {
					t.Errorf("Content-Type = %q, want %q", req.contentType, f.wantBody)
				}
				obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(req.body, nil, &metav1.DeleteOptions{})
				if err != nil {
					t.Fatalf("decoding the DeleteOptions body %q: %v", req.body, err)
				}
				opts, ok := obj.(*metav1.DeleteOptions)
				if !ok {
					t.Fatalf("body decoded to %T, want *metav1.DeleteOptions", obj)
				}
				if opts.PropagationPolicy == nil || *opts.PropagationPolicy != *tt.opts.PropagationPolicy {
					t.Errorf("propagationPolicy = %v, want %s", opts.PropagationPolicy, *tt.opts.PropagationPolicy)
				}
				if strings.Join(opts.DryRun, ",") != strings.Join(tt.opts.DryRun, ",") {
					t.Errorf("dryRun = %v, want %v", opts.DryRun, tt.opts.DryRun)
				}
			})
		}
	}
}

func TestDeploymentPatchTypesWire(t *testing.T) {
	force := true
	tests := []struct {
		name      string
		patchType types.PatchType
		patch     string
		opts      metav1.PatchOptions
		sub       []string
		wantPath  string
		wantQuery map[string]string
	}{
		{
			name:      "json patch",
			patchType: types.JSONPatchType,
			patch:     `[{"op":"replace","path":"/spec/replicas","value":3}]`,
			opts:      metav1.PatchOptions{FieldManager: "jp"},
			wantPath:  deploymentsPath + "/web",
			wantQuery: map[string]string{"fieldManager": "jp"},
		},
		{
			name:      "merge patch",
			patchType: types.MergePatchType,
			patch:     `{"metadata":{"labels":{"kind":"merge"}}}`,
			opts:      metav1.PatchOptions{FieldManager: "mp", DryRun: []string{metav1.DryRunAll}},
			wantPath:  deploymentsPath + "/web",
			wantQuery: map[string]string{"fieldManager": "mp", "dryRun": "All"},
		},
		{
			name:      "strategic merge patch on status",
			patchType: types.StrategicMergePatchType,
			patch:     `{"status":{"readyReplicas":2}}`,
			opts:      metav1.PatchOptions{FieldValidation: "Strict"},
			sub:       []string{"status"},
			wantPath:  deploymentsPath + "/web/status",
			wantQuery: map[string]string{"fieldValidation": "Strict"},
		},
		{
			name:      "apply patch forced",
			patchType: types.ApplyYAMLPatchType,
			patch:     "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n",
			opts:      metav1.PatchOptions{FieldManager: "ap", Force: &force},
			wantPath:  deploymentsPath + "/web",
			wantQuery: map[string]string{"fieldManager": "ap", "force": "true"},
		},
	}
	for _, f := range wireFormats {
		for _, tt := range tests {
			t.Run(f.name+"/"+tt.name, func(t *testing.T) {
				ts, seen := oneRequestServer(t, func(w http.ResponseWriter, r *http.Request, req capturedRequest) {
					// Echo the patch type so the decoded answer proves the
					// response body reached the caller.
					d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{
						Name: "web", Namespace: "ns", ResourceVersion: "11",
						Annotations: map[string]string{"patch-type": req.contentType},
					}}
					writeObject(t, w, f.serverReply, http.StatusOK, d, appsv1.SchemeGroupVersion)
				})
				got, err := newDeploymentClient(t, ts, f).Patch(context.Background(), "web", tt.patchType, []byte(tt.patch), tt.opts, tt.sub...)
				if err != nil {
					t.Fatalf("Patch: %v", err)
				}
				req := receive(t, seen)
				if req.method != http.MethodPatch || req.path != tt.wantPath {
					t.Errorf("request = %s %s, want PATCH %s", req.method, req.path, tt.wantPath)
				}
				if req.contentType != string(tt.patchType) {
					t.Errorf("Content-Type = %q, want %q", req.contentType, tt.patchType)
				}
				if string(req.body) != tt.patch {
					t.Errorf("body = %q, want the patch %q verbatim", req.body, tt.patch)
				}
				for param, want := range tt.wantQuery {
					if got := req.query.Get(param); got != want {
						t.Errorf("query %s = %q, want %q (query %v)", param, got, want, req.query)
					}
				}
				if len(req.query) != len(tt.wantQuery) {
					t.Errorf("query = %v, want exactly %v", req.query, tt.wantQuery)
				}
				if got := firstAccepted(req.accept); got != f.wantAccept {
					t.Errorf("Accept = %q, want %q first", req.accept, f.wantAccept)
				}
				if got.Name != "web" || got.ResourceVersion != "11" || got.Annotations["patch-type"] != string(tt.patchType) {
					t.Errorf("Patch returned %s@%s annotations %v", got.Name, got.ResourceVersion, got.Annotations)
				}
			})
		}
	}
}

func TestDeploymentDryRunWire(t *testing.T) {
	tests := []struct {
		name       string
		dryRun     []string
		wantDryRun []string
	}{
		{name: "dry run all", dryRun: []string{metav1.DryRunAll}, wantDryRun: []string{"All"}},
		{name: "persisted", dryRun: nil, wantDryRun: nil},
	}
	for _, f := range wireFormats {
		for _, tt := range tests {
			t.Run(f.name+"/"+tt.name, func(t *testing.T) {
				ts, seen := oneRequestServer(t, func(w http.ResponseWriter, r *http.Request, req capturedRequest) {
					obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(req.body, nil, &appsv1.Deployment{})
					if err != nil {
						writeStatus(t, w, f.serverReply, apierrors.NewBadRequest(err.Error()))
						return
					}
					d := obj.(*appsv1.Deployment)
					if len(r.URL.Query()["dryRun"]) == 0 {
						d.ResourceVersion = "1" // only persisted objects get a version
					}
					writeObject(t, w, f.serverReply, http.StatusCreated, d, appsv1.SchemeGroupVersion)
				})
				got, err := newDeploymentClient(t, ts, f).Create(context.Background(),
					&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: appsv1.DeploymentSpec{Replicas: int32Ptr(4)}},
					metav1.CreateOptions{DryRun: tt.dryRun})
				if err != nil {
					t.Fatalf("Create: %v", err)
				}
				req := receive(t, seen)
				if req.method != http.MethodPost || req.path != deploymentsPath {
					t.Errorf("request = %s %s, want POST %s", req.method, req.path, deploymentsPath)
				}
				if strings.Join(req.query["dryRun"], ",") != strings.Join(tt.wantDryRun, ",") {
					t.Errorf("dryRun query = %v, want %v (raw %v)", req.query["dryRun"], tt.wantDryRun, req.query)
				}
				if req.contentType != f.wantBody {
					t.Errorf("Content-Type = %q, want %q", req.contentType, f.wantBody)
				}
				wantRV := "1"
				if len(tt.dryRun) > 0 {
					wantRV = ""
				}
				if got.Name != "web" || got.Spec.Replicas == nil || *got.Spec.Replicas != 4 || got.ResourceVersion != wantRV {
					t.Errorf("Create returned %s@%q replicas %v, want web@%q replicas 4", got.Name, got.ResourceVersion, got.Spec.Replicas, wantRV)
				}
			})
		}
	}
}
