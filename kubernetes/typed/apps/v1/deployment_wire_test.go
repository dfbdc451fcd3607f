package v1_test

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	applyappsv1 "github.com/kubeclient/client-go/applyconfigurations/apps/v1"
	applyautoscalingv1 "github.com/kubeclient/client-go/applyconfigurations/autoscaling/v1"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedappsv1 "github.com/kubeclient/client-go/kubernetes/typed/apps/v1"
	"github.com/kubeclient/client-go/rest"
)

const protobufType = "application/vnd.kubernetes.protobuf"

// request is what the fake API server saw of one request.
type request struct {
	method, path, query string
	accept, contentType string
}

// fakeAPIServer stores deployments of one namespace and answers in the
// format the client asks for (protobuf or JSON), as kube-apiserver does.
type fakeAPIServer struct {
	t *testing.T

	mu          sync.Mutex // guards deployments and requests
	deployments map[string]*appsv1.Deployment
	requests    []request
}

func (s *fakeAPIServer) seen() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]request(nil), s.requests...)
}

// encode writes obj in the first media type of accept that the scheme can
// serialize.
func (s *fakeAPIServer) encode(w http.ResponseWriter, r *http.Request, status int, obj runtime.Object, gv schema.GroupVersion) {
	mediaType := "application/json"
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err == nil && (mt == protobufType || mt == "application/json") {
			mediaType = mt
			break
		}
	}
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		s.t.Errorf("no serializer for %s", mediaType)
		return
	}
	w.Header().Set("Content-Type", mediaType)
	w.WriteHeader(status)
	if err := scheme.Codecs.EncoderForVersion(info.Serializer, gv).Encode(obj, w); err != nil {
		s.t.Errorf("encoding the response: %v", err)
	}
}

func (s *fakeAPIServer) status(w http.ResponseWriter, r *http.Request, err *apierrors.StatusError) {
	st := err.Status()
	s.encode(w, r, int(st.Code), &st, schema.GroupVersion{Version: "v1"})
}

// decodeDeployment reads a request body in its content type.
func decodeDeployment(r *http.Request) (*appsv1.Deployment, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, &appsv1.Deployment{})
	if err != nil {
		return nil, err
	}
	return obj.(*appsv1.Deployment), nil
}

func (s *fakeAPIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, request{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept"), r.Header.Get("Content-Type")})
	const base = "/apis/apps/v1/namespaces/ns/deployments"
	rest, ok := strings.CutPrefix(r.URL.Path, base)
	if !ok {
		s.status(w, r, apierrors.NewNotFound(schema.GroupResource{}, r.URL.Path))
		return
	}
	parts := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	name, sub := parts[0], ""
	if len(parts) > 1 {
		sub = parts[1]
	}
	gr := schema.GroupResource{Group: "apps", Resource: "deployments"}
	gv := appsv1.SchemeGroupVersion
	switch {
	case r.Method == http.MethodPost && name == "":
		d, err := decodeDeployment(r)
		if err != nil {
			s.status(w, r, apierrors.NewBadRequest(err.Error()))
			return
		}
		if _, exists := s.deployments[d.Name]; exists {
			s.status(w, r, apierrors.NewAlreadyExists(gr, d.Name))
			return
		}
		d.ResourceVersion = "1"
		s.deployments[d.Name] = d
		s.encode(w, r, http.StatusCreated, d, gv)
	case r.Method == http.MethodGet && name == "":
		list := &appsv1.DeploymentList{ListMeta: metav1.ListMeta{ResourceVersion: "7"}}
		for _, d := range s.deployments {
			list.Items = append(list.Items, *d)
		}
		s.encode(w, r, http.StatusOK, list, gv)
	case s.deployments[name] == nil:
		s.status(w, r, apierrors.NewNotFound(gr, name))
	case r.Method == http.MethodGet && sub == "scale":
		d := s.deployments[name]
		scale := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Spec: autoscalingv1.ScaleSpec{Replicas: *d.Spec.Replicas}}
		s.encode(w, r, http.StatusOK, scale, autoscalingv1.SchemeGroupVersion)
	case r.Method == http.MethodGet:
		s.encode(w, r, http.StatusOK, s.deployments[name], gv)
	case r.Method == http.MethodPut:
		d, err := decodeDeployment(r)
		if err != nil {
			s.status(w, r, apierrors.NewBadRequest(err.Error()))
			return
		}
		if sub == "status" {
			stored := s.deployments[name]
			stored.Status = d.Status
			d = stored
		} else {
			d.Status = s.deployments[name].Status
		}
		d.ResourceVersion = "2"
		s.deployments[name] = d
		s.encode(w, r, http.StatusOK, d, gv)
	case r.Method == http.MethodPatch:
		body, _ := io.ReadAll(r.Body)
		stored := s.deployments[name]
		switch types.PatchType(r.Header.Get("Content-Type")) {
		case types.StrategicMergePatchType:
			// Enough of strategic merge for the test: labels are merged.
			var patch appsv1.Deployment
			if err := json.Unmarshal(body, &patch); err != nil {
				s.status(w, r, apierrors.NewBadRequest(err.Error()))
				return
			}
			for k, v := range patch.Labels {
				if stored.Labels == nil {
					stored.Labels = map[string]string{}
				}
				stored.Labels[k] = v
			}
			s.encode(w, r, http.StatusOK, stored, gv)
		case types.ApplyYAMLPatchType:
			if r.URL.Query().Get("fieldManager") == "" {
				s.status(w, r, apierrors.NewBadRequest("fieldManager is required for apply"))
				return
			}
			if sub == "scale" {
				var scale autoscalingv1.Scale
				if err := json.Unmarshal(body, &scale); err != nil {
					s.status(w, r, apierrors.NewBadRequest(err.Error()))
					return
				}
				stored.Spec.Replicas = &scale.Spec.Replicas
				scale.Name, scale.Namespace = name, "ns"
				s.encode(w, r, http.StatusOK, &scale, autoscalingv1.SchemeGroupVersion)
				return
			}
			var applied appsv1.Deployment
			if err := json.Unmarshal(body, &applied); err != nil {
				s.status(w, r, apierrors.NewBadRequest(err.Error()))
				return
			}
			if applied.Spec.Replicas != nil {
				stored.Spec.Replicas = applied.Spec.Replicas
			}
			for k, v := range applied.Labels {
				if stored.Labels == nil {
					stored.Labels = map[string]string{}
				}
				stored.Labels[k] = v
			}
			s.encode(w, r, http.StatusOK, stored, gv)
		default:
			s.status(w, r, apierrors.NewBadRequest("unsupported patch type "+r.Header.Get("Content-Type")))
		}
	case r.Method == http.MethodDelete:
		delete(s.deployments, name)
		st := metav1.Status{Status: metav1.StatusSuccess}
		s.encode(w, r, http.StatusOK, &st, schema.GroupVersion{Version: "v1"})
	default:
		s.status(w, r, apierrors.NewMethodNotSupported(gr, r.Method))
	}
}

func int32Ptr(i int32) *int32 { return &i }

func TestDeploymentClientWireFormats(t *testing.T) {
	tests := []struct {
		name        string
		contentType string // rest.Config.ContentType
		wantAccept  string // prefix of the Accept header of reads
		wantBody    string // content type of create/update bodies
	}{
		{name: "protobuf preferred by default", contentType: "", wantAccept: protobufType, wantBody: protobufType},
		{name: "json chosen by the user", contentType: "application/json", wantAccept: "application/json", wantBody: "application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &fakeAPIServer{t: t, deployments: map[string]*appsv1.Deployment{}}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			cfg := &rest.Config{Host: ts.URL}
			cfg.ContentType = tt.contentType
			client, err := typedappsv1.NewForConfig(cfg)
			if err != nil {
				t.Fatalf("NewForConfig: %v", err)
			}
			ctx := context.Background()
			deployments := client.Deployments("ns")

			created, err := deployments.Create(ctx, &appsv1.Deployment{
				ObjectMeta: metav1.ObjectMeta{Name: "web"},
				Spec:       appsv1.DeploymentSpec{Replicas: int32Ptr(1)},
			}, metav1.CreateOptions{FieldManager: "test"})
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			if created.ResourceVersion != "1" || *created.Spec.Replicas != 1 {
				t.Errorf("Create returned %+v", created)
			}
			if _, err := deployments.Create(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"}}, metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
				t.Errorf("second Create: got %v, want AlreadyExists", err)
			}

			got, err := deployments.Get(ctx, "web", metav1.GetOptions{})
			if err != nil || got.Name != "web" {
				t.Fatalf("Get: %v, %+v", err, got)
			}
			if _, err := deployments.Get(ctx, "missing", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("Get missing: got %v, want NotFound", err)
			}

			list, err := deployments.List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
			if err != nil || len(list.Items) != 1 || list.ResourceVersion != "7" {
				t.Fatalf("List: %v, %+v", err, list)
			}

			got.Spec.Replicas = int32Ptr(2)
			updated, err := deployments.Update(ctx, got, metav1.UpdateOptions{})
			if err != nil || *updated.Spec.Replicas != 2 || updated.ResourceVersion != "2" {
				t.Fatalf("Update: %v, %+v", err, updated)
			}

			updated.Status.ReadyReplicas = 2
			withStatus, err := deployments.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
			if err != nil || withStatus.Status.ReadyReplicas != 2 {
				t.Fatalf("UpdateStatus: %v, %+v", err, withStatus)
			}

			patched, err := deployments.Patch(ctx, "web", types.StrategicMergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}}}`), metav1.PatchOptions{})
			if err != nil || patched.Labels["patched"] != "yes" {
				t.Fatalf("Patch: %v, %+v", err, patched)
			}

			applied, err := deployments.Apply(ctx, applyappsv1.Deployment("web", "ns").
				WithLabels(map[string]string{"applied": "yes"}).
				WithSpec(applyappsv1.DeploymentSpec().WithReplicas(3)), metav1.ApplyOptions{FieldManager: "test", Force: true})
			if err != nil || *applied.Spec.Replicas != 3 || applied.Labels["applied"] != "yes" {
				t.Fatalf("Apply: %v, %+v", err, applied)
			}
			if _, err := deployments.Apply(ctx, nil, metav1.ApplyOptions{FieldManager: "test"}); err == nil {
				t.Error("Apply(nil) succeeded")
			}

			scale, err := deployments.GetScale(ctx, "web", metav1.GetOptions{})
			if err != nil || scale.Spec.Replicas != 3 {
				t.Fatalf("GetScale: %v, %+v", err, scale)
			}
			scaled, err := deployments.ApplyScale(ctx, "web", applyautoscalingv1.Scale().WithSpec(applyautoscalingv1.ScaleSpec().WithReplicas(5)), metav1.ApplyOptions{FieldManager: "test"})
			if err != nil || scaled.Spec.Replicas != 5 {
				t.Fatalf("ApplyScale: %v, %+v", err, scaled)
			}

			if err := deployments.Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if _, err := deployments.Get(ctx, "web", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("Get after Delete: got %v, want NotFound", err)
			}

			for _, r := range srv.seen() {
				if !strings.HasPrefix(r.accept, tt.wantAccept) {
					t.Errorf("%s %s: Accept = %q, want prefix %q", r.method, r.path, r.accept, tt.wantAccept)
				}
				switch {
				case r.method == http.MethodPost || r.method == http.MethodPut:
					if r.contentType != tt.wantBody {
						t.Errorf("%s %s: Content-Type = %q, want %q", r.method, r.path, r.contentType, tt.wantBody)
					}
				case r.method == http.MethodPatch && strings.Contains(r.query, "fieldManager"):
					if r.contentType != string(types.ApplyYAMLPatchType) {
						t.Errorf("apply %s: Content-Type = %q, want %q", r.path, r.contentType, types.ApplyYAMLPatchType)
					}
				}
			}
			paths := map[string]bool{}
			for _, r := range srv.seen() {
				paths[r.method+" "+r.path] = true
			}
			for _, want := range []string{
				"PUT /apis/apps/v1/namespaces/ns/deployments/web/status",
				"GET /apis/apps/v1/namespaces/ns/deployments/web/scale",
				"PATCH /apis/apps/v1/namespaces/ns/deployments/web/scale",
			} {
				if !paths[want] {
					t.Errorf("no request %q; saw %v", want, paths)
				}
			}
		})
	}
}
