package scale_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/dynamic"
	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/scale"
)

// scaleServer serves discovery for a few scalable resources and their scale
// subresources, each in the Scale version a real server of that API uses.
type scaleServer struct {
	*httptest.Server

	mu sync.Mutex
	// replicas per scale path, updated by PUT and PATCH.
	replicas map[string]int32
	// lastBody and lastQuery are those of the last write.
	lastBody  map[string]any
	lastQuery string
	// discoveryRequests counts requests for discovery documents.
	discoveryRequests int
}

// scalePaths maps the path of a scale subresource to the apiVersion of the
// Scale it speaks.
var scalePaths = map[string]string{
	"/apis/apps/v1/namespaces/default/deployments/web/scale":           "autoscaling/v1",
	"/apis/apps/v1beta1/namespaces/default/deployments/old/scale":      "apps/v1beta1",
	"/apis/extensions/v1beta1/namespaces/default/replicasets/rs/scale": "extensions/v1beta1",
	"/apis/stable.example.com/v1/crontabs/cluster-wide/scale":          "autoscaling/v1",
	"/apis/apps/v1beta2/namespaces/default/statefulsets/db/scale":      "apps/v1beta2",
}

func newScaleServer(t *testing.T) *scaleServer {
	s := &scaleServer{replicas: map[string]int32{}}
	for p := range scalePaths {
		s.replicas[p] = 3
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func resourceList(gv string, resources ...metav1.APIResource) *metav1.APIResourceList {
	return &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv, APIResources: resources}
}

var discoveryDocs = map[string]*metav1.APIResourceList{
	"/apis/apps/v1": resourceList("apps/v1",
		metav1.APIResource{Name: "deployments", Namespaced: true, Kind: "Deployment"},
		metav1.APIResource{Name: "deployments/scale", Namespaced: true, Kind: "Scale", Group: "autoscaling", Version: "v1"}),
	"/apis/apps/v1beta1": resourceList("apps/v1beta1",
		metav1.APIResource{Name: "deployments", Namespaced: true, Kind: "Deployment"},
		metav1.APIResource{Name: "deployments/scale", Namespaced: true, Kind: "Scale"}),
	"/apis/apps/v1beta2": resourceList("apps/v1beta2",
		metav1.APIResource{Name: "statefulsets/scale", Namespaced: true, Kind: "Scale"}),
	"/apis/extensions/v1beta1": resourceList("extensions/v1beta1",
		metav1.APIResource{Name: "replicasets/scale", Namespaced: true, Kind: "Scale"}),
	"/apis/stable.example.com/v1": resourceList("stable.example.com/v1",
		metav1.APIResource{Name: "crontabs", Kind: "CronTab"},
		metav1.APIResource{Name: "crontabs/scale", Kind: "Scale", Group: "autoscaling", Version: "v1"}),
}

func (s *scaleServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if doc, ok := discoveryDocs[r.URL.Path]; ok {
		s.discoveryRequests++
		writeJSON(w, http.StatusOK, doc)
		return
	}
	apiVersion, ok := scalePaths[r.URL.Path]
	if !ok {
		writeJSON(w, http.StatusNotFound, &metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure,
			Reason: metav1.StatusReasonNotFound, Code: http.StatusNotFound, Message: "not found: " + r.URL.Path,
			Details: &metav1.StatusDetails{Name: "missing", Kind: "deployments"},
		})
		return
	}
	switch r.Method {
	case http.MethodPut, http.MethodPatch:
		body, _ := io.ReadAll(r.Body)
		s.lastQuery = r.URL.RawQuery
		s.lastBody = map[string]any{}
		json.Unmarshal(body, &s.lastBody)
		if r.Method == http.MethodPut {
			if s.lastBody["apiVersion"] != apiVersion {
				writeJSON(w, http.StatusBadRequest, &metav1.Status{
					TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure,
					Reason: metav1.StatusReasonBadRequest, Code: http.StatusBadRequest,
					Message: "expected " + apiVersion + ", got " + s.lastBody["apiVersion"].(string),
				})
				return
			}
			if md, _ := s.lastBody["metadata"].(map[string]any); md["resourceVersion"] == "stale" {
				writeJSON(w, http.StatusConflict, &metav1.Status{
					TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure,
					Reason: metav1.StatusReasonConflict, Code: http.StatusConflict, Message: "the object has been modified",
				})
				return
			}
		}
		spec, _ := s.lastBody["spec"].(map[string]any)
		if n, ok := spec["replicas"].(float64); ok {
			s.replicas[r.URL.Path] = int32(n)
		}
	}
	writeJSON(w, http.StatusOK, scaleBody(apiVersion, s.replicas[r.URL.Path]))
}

// scaleBody is a Scale of apiVersion as the server would send it: status
// selector in the fields that version has.
func scaleBody(apiVersion string, replicas int32) map[string]any {
	status := map[string]any{"replicas": replicas}
	switch apiVersion {
	case "autoscaling/v1":
		status["selector"] = "app=web,tier in (front)"
	default:
		status["selector"] = map[string]string{"app": "web"}
		status["targetSelector"] = "app=web"
	}
	return map[string]any{
		"apiVersion": apiVersion,
		"kind":       "Scale",
		"metadata":   map[string]any{"name": "obj", "namespace": "default", "resourceVersion": "7"},
		"spec":       map[string]any{"replicas": replicas},
		"status":     status,
	}
}

func writeJSON(w http.ResponseWriter, code int, obj any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(obj)
}

func newMapper() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper(nil)
	for _, gvk := range []schema.GroupVersionKind{
		{Group: "apps", Version: "v1", Kind: "Deployment"},
		{Group: "apps", Version: "v1beta2", Kind: "StatefulSet"},
		{Group: "extensions", Version: "v1beta1", Kind: "ReplicaSet"},
	} {
		m.Add(gvk, meta.RESTScopeNamespace)
	}
	m.Add(schema.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "CronTab"}, meta.RESTScopeRoot)
	return m
}

func newScales(t *testing.T, s *scaleServer) scale.ScalesGetter {
	t.Helper()
	cfg := &restclient.Config{Host: s.URL}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	scales, err := scale.NewForConfig(cfg, newMapper(), dynamic.LegacyAPIPathResolverFunc, scale.NewDiscoveryScaleKindResolver(dc))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GroupVersion != nil || cfg.NegotiatedSerializer != nil {
		t.Error("NewForConfig modified the caller's config")
	}
	return scales
}

func TestGetConvertsEveryScaleVersion(t *testing.T) {
	s := newScaleServer(t)
	scales := newScales(t, s)
	tests := []struct {
		namespace    string
		resource     schema.GroupResource
		name         string
		wantSelector string
	}{
		{"default", schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", "app=web,tier in (front)"},
		{"default", schema.GroupResource{Group: "extensions", Resource: "replicasets"}, "rs", "app=web"},
		{"default", schema.GroupResource{Group: "apps", Resource: "statefulsets"}, "db", "app=web"},
		{"", schema.GroupResource{Group: "stable.example.com", Resource: "crontabs"}, "cluster-wide", "app=web,tier in (front)"},
	}
	for _, tc := range tests {
		got, err := scales.Scales(tc.namespace).Get(context.Background(), tc.resource, tc.name, metav1.GetOptions{})
		if err != nil {
			t.Errorf("Get %v: %v", tc.resource, err)
			continue
		}
		if got.Spec.Replicas != 3 || got.Status.Replicas != 3 || got.Status.Selector != tc.wantSelector || got.ResourceVersion != "7" {
			t.Errorf("Get %v = %+v", tc.resource, got)
		}
	}
}

func TestGetErrors(t *testing.T) {
	s := newScaleServer(t)
	scales := newScales(t, s)
	_, err := scales.Scales("default").Get(context.Background(), schema.GroupResource{Group: "apps", Resource: "deployments"}, "missing", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("missing object: err = %v, want NotFound", err)
	}
	_, err = scales.Scales("default").Get(context.Background(), schema.GroupResource{Group: "nope", Resource: "widgets"}, "x", metav1.GetOptions{})
	if err == nil || !strings.Contains(err.Error(), "widgets.nope") {
		t.Errorf("unmapped resource: err = %v", err)
	}
}

func TestUpdateSendsTheScaleVersionDiscoveryNames(t *testing.T) {
	s := newScaleServer(t)
	scales := newScales(t, s)
	tests := []struct {
		resource    schema.GroupResource
		name        string
		wantVersion string
	}{
		{schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", "autoscaling/v1"},
		{schema.GroupResource{Group: "extensions", Resource: "replicasets"}, "rs", "extensions/v1beta1"},
		{schema.GroupResource{Group: "apps", Resource: "statefulsets"}, "db", "apps/v1beta2"},
	}
	for _, tc := range tests {
		in := &autoscalingv1.Scale{
			ObjectMeta: metav1.ObjectMeta{Name: tc.name, Namespace: "default"},
			Spec:       autoscalingv1.ScaleSpec{Replicas: 5},
		}
		out, err := scales.Scales("default").Update(context.Background(), tc.resource, in, metav1.UpdateOptions{DryRun: []string{"All"}})
		if err != nil {
			t.Errorf("Update %v: %v", tc.resource, err)
			continue
		}
		if out.Spec.Replicas != 5 {
			t.Errorf("Update %v returned %d replicas, want 5", tc.resource, out.Spec.Replicas)
		}
		s.mu.Lock()
		if s.lastBody["apiVersion"] != tc.wantVersion || s.lastQuery != "dryRun=All" {
			t.Errorf("Update %v sent apiVersion %v with query %q", tc.resource, s.lastBody["apiVersion"], s.lastQuery)
		}
		s.mu.Unlock()
	}

	// The scale kinds are remembered: a second round asks discovery nothing.
	s.mu.Lock()
	before := s.discoveryRequests
	s.mu.Unlock()
	in := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: autoscalingv1.ScaleSpec{Replicas: 1}}
	if _, err := scales.Scales("default").Update(context.Background(), schema.GroupResource{Group: "apps", Resource: "deployments"}, in, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	if s.discoveryRequests != before {
		t.Error("the scale kind was looked up in discovery again")
	}
	s.mu.Unlock()

	conflicting := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web", ResourceVersion: "stale"}}
	if _, err := scales.Scales("default").Update(context.Background(), schema.GroupResource{Group: "apps", Resource: "deployments"}, conflicting, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("stale update: err = %v, want Conflict", err)
	}
	if _, err := scales.Scales("default").Update(context.Background(), schema.GroupResource{Group: "apps", Resource: "deployments"}, nil, metav1.UpdateOptions{}); err == nil {
		t.Error("a nil scale was accepted")
	}
}

func TestPatch(t *testing.T) {
	s := newScaleServer(t)
	scales := newScales(t, s)
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1beta1", Resource: "deployments"}
	out, err := scales.Scales("default").Patch(context.Background(), gvr, "old", types.MergePatchType, []byte(`{"spec":{"replicas":9}}`), metav1.PatchOptions{FieldManager: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Spec.Replicas != 9 || out.Status.Selector != "app=web" {
		t.Errorf("Patch returned %+v", out)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastQuery != "fieldManager=test" {
		t.Errorf("query = %q", s.lastQuery)
	}
}

func TestNewWithRESTClientAndEmptyAPIPath(t *testing.T) {
	s := newScaleServer(t)
	rc, err := restclient.RESTClientFor(&restclient.Config{
		Host:          s.URL,
		ContentConfig: restclient.ContentConfig{GroupVersion: &schema.GroupVersion{}, NegotiatedSerializer: scale.NewScaleConverter().Codecs().WithoutConversion()},
	})
	if err != nil {
		t.Fatal(err)
	}
	// A resolver answering "" means /api; only the core group lives there,
	// so point it at /apis explicitly for apps.
	var asked []schema.GroupVersionKind
	resolver := func(gvk schema.GroupVersionKind) string {
		asked = append(asked, gvk)
		return "/apis"
	}
	scales := scale.New(rc, newMapper(), resolver, nil)
	got, err := scales.Scales("default").Get(context.Background(), schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", metav1.GetOptions{})
	if err != nil || got.Spec.Replicas != 3 {
		t.Fatalf("Get = %v, %v", got, err)
	}
	if len(asked) != 1 || asked[0] != (schema.GroupVersionKind{Group: "apps", Version: "v1"}) {
		t.Errorf("resolver asked %v", asked)
	}
}

func TestDiscoveryScaleKindResolver(t *testing.T) {
	s := newScaleServer(t)
	dc, err := discovery.NewDiscoveryClientForConfig(&restclient.Config{Host: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	r := scale.NewDiscoveryScaleKindResolver(dc)
	tests := []struct {
		in      schema.GroupVersionResource
		want    schema.GroupVersionKind
		wantErr string
	}{
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, ""},
		{schema.GroupVersionResource{Group: "apps", Version: "v1beta1", Resource: "deployments"}, schema.GroupVersionKind{Group: "apps", Version: "v1beta1", Kind: "Scale"}, ""},
		{schema.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "cronjobs"}, schema.GroupVersionKind{}, "could not find scale subresource"},
		{schema.GroupVersionResource{Group: "nope", Version: "v1", Resource: "x"}, schema.GroupVersionKind{}, "unable to fetch discovery information"},
	}
	for _, tc := range tests {
		got, err := r.ScaleForResource(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ScaleForResource(%v) err = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ScaleForResource(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestMissingCollaboratorsAreErrors(t *testing.T) {
	s := newScaleServer(t)
	scales, err := scale.NewForConfig(&restclient.Config{Host: s.URL}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	deployments := schema.GroupResource{Group: "apps", Resource: "deployments"}
	if _, err := scales.Scales("default").Get(context.Background(), deployments, "web", metav1.GetOptions{}); err == nil {
		t.Error("Get without a mapper succeeded")
	}
	scales, err = scale.NewForConfig(&restclient.Config{Host: s.URL}, newMapper(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scales.Scales("default").Get(context.Background(), deployments, "web", metav1.GetOptions{}); err != nil {
		t.Errorf("Get with the default path resolver: %v", err)
	}
	if _, err := scales.Scales("default").Update(context.Background(), deployments, &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web"}}, metav1.UpdateOptions{}); err == nil {
		t.Error("Update without a ScaleKindResolver succeeded")
	}
}
