package model

import (
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"testing"
)

const fixture = "github.com/kubeclient/client-go/cmd/codegen/testdata/apis/example/v1"

// moduleRoot is the directory go list runs in for the tests.
func moduleRoot(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
}

func loadFixture(t *testing.T) *Universe {
	t.Helper()
	u, err := Load(Options{Dir: moduleRoot(t), Inputs: []string{fixture}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return u
}

func verbs(s VerbSet) []string {
	var out []string
	for v := range s {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func TestLoadFixtureGroup(t *testing.T) {
	u := loadFixture(t)
	if len(u.Groups) != 1 {
		t.Fatalf("got %d groups, want 1", len(u.Groups))
	}
	g := u.Groups[0]
	if g.Name != "example.kubeclient.dev" || g.GoName != "Example" || g.PackageName != "example" {
		t.Errorf("group = %q/%q/%q, want example.kubeclient.dev/Example/example", g.Name, g.GoName, g.PackageName)
	}
	if len(g.Versions) != 1 || g.Versions[0].Version != "v1" || g.Versions[0].Package.Path != fixture {
		t.Fatalf("versions = %+v", g.Versions)
	}
	if !g.Versions[0].Package.Tags.Has("k8s:deepcopy-gen") {
		t.Errorf("package tag k8s:deepcopy-gen not found: %v", g.Versions[0].Package.Tags)
	}
	// Referenced packages are parsed too, so field types resolve.
	for _, p := range []string{"k8s.io/apimachinery/pkg/apis/meta/v1", "k8s.io/apimachinery/pkg/util/intstr"} {
		if u.Packages[p] == nil {
			t.Errorf("referenced package %s was not loaded", p)
		}
	}
}

func TestLoadFixtureResources(t *testing.T) {
	u := loadFixture(t)
	gv := u.Groups[0].Versions[0]
	all := []string{"apply", "applyStatus", "create", "delete", "deleteCollection", "get", "list", "patch", "update", "updateStatus", "watch"}
	noStatus := []string{"apply", "create", "delete", "deleteCollection", "get", "list", "patch", "update", "watch"}
	tests := []struct {
		kind       string
		plural     string
		resource   string
		namespaced bool
		hasStatus  bool
		verbs      []string
		methods    []string
		hasList    bool
	}{
		{"Gadget", "Gadgets", "gadgets", false, false, noStatus, nil, true},
		{"Policy", "Policies", "policies", true, false, []string{"apply", "create", "delete", "get", "list", "patch", "update"}, nil, true},
		{"Review", "Reviews", "reviews", false, false, []string{"create"}, nil, false},
		{"Widget", "Widgets", "widgets", true, true, all, []string{"GetScale", "ApplyScale"}, true},
	}
	if len(gv.Resources) != len(tests) {
		t.Fatalf("got %d resources, want %d", len(gv.Resources), len(tests))
	}
	for i, tt := range tests {
		r := gv.Resources[i]
		t.Run(tt.kind, func(t *testing.T) {
			if r.Kind != tt.kind || r.Plural != tt.plural || r.Resource != tt.resource {
				t.Errorf("names = %s/%s/%s, want %s/%s/%s", r.Kind, r.Plural, r.Resource, tt.kind, tt.plural, tt.resource)
			}
			if r.Namespaced != tt.namespaced {
				t.Errorf("Namespaced = %v, want %v", r.Namespaced, tt.namespaced)
			}
			if r.HasStatus != tt.hasStatus {
				t.Errorf("HasStatus = %v, want %v", r.HasStatus, tt.hasStatus)
			}
			if got := verbs(r.Verbs); !reflect.DeepEqual(got, tt.verbs) {
				t.Errorf("verbs = %v, want %v", got, tt.verbs)
			}
			var methods []string
			for _, m := range r.Methods {
				methods = append(methods, m.Name)
			}
			if !reflect.DeepEqual(methods, tt.methods) {
				t.Errorf("methods = %v, want %v", methods, tt.methods)
			}
			if (r.List != nil) != tt.hasList {
				t.Errorf("List = %v, want present=%v", r.List, tt.hasList)
			}
		})
	}
}

func TestExtendedMethod(t *testing.T) {
	u := loadFixture(t)
	widget := u.Groups[0].Versions[0].Resources[3]
	m := widget.Methods[1]
	want := &ExtendedMethod{
		Name: "ApplyScale", Verb: "apply", Subresource: "scale",
		Input:  &TypeRef{Kind: RefNamed, PkgPath: "k8s.io/api/autoscaling/v1", Name: "Scale"},
		Result: &TypeRef{Kind: RefNamed, PkgPath: "k8s.io/api/autoscaling/v1", Name: "Scale"},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("method = %+v, want %+v", m, want)
	}
	get := widget.Methods[0]
	if get.Input.PkgPath != fixture || get.Input.Name != "Widget" {
		t.Errorf("default input = %+v, want the Widget type", get.Input)
	}
}

func TestFieldsAndMarkers(t *testing.T) {
	u := loadFixture(t)
	spec := u.Packages[fixture].Types["WidgetSpec"]
	tests := []struct {
		field     string
		jsonName  string
		omitEmpty bool
		ref       *TypeRef
		tags      Tags
	}{
		{"Replicas", "replicas", true, &TypeRef{Kind: RefPointer, Elem: &TypeRef{Kind: RefBuiltin, Name: "int32"}}, Tags{"optional": {""}}},
		{"Mode", "mode", false, &TypeRef{Kind: RefNamed, PkgPath: fixture, Name: "Mode"}, Tags{}},
		{"Ports", "ports", true, &TypeRef{Kind: RefSlice, Elem: &TypeRef{Kind: RefNamed, PkgPath: fixture, Name: "Port"}}, Tags{"listType": {"map"}, "listMapKey": {"name", "protocol"}}},
		{"Parts", "parts", true, &TypeRef{Kind: RefSlice, Elem: &TypeRef{Kind: RefNamed, PkgPath: fixture, Name: "Part"}}, Tags{"patchStrategy": {"merge"}, "patchMergeKey": {"name"}}},
		{"Labels", "labels", true, &TypeRef{Kind: RefMap, Key: &TypeRef{Kind: RefBuiltin, Name: "string"}, Elem: &TypeRef{Kind: RefBuiltin, Name: "string"}}, Tags{"mapType": {"atomic"}}},
		{"Target", "target", false, &TypeRef{Kind: RefNamed, PkgPath: "k8s.io/apimachinery/pkg/util/intstr", Name: "IntOrString"}, Tags{}},
		{"Hidden", "-", false, &TypeRef{Kind: RefBuiltin, Name: "string"}, Tags{}},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			f := spec.Field(tt.field)
			if f == nil {
				t.Fatalf("field %s not found", tt.field)
			}
			if f.JSONName != tt.jsonName || f.OmitEmpty != tt.omitEmpty {
				t.Errorf("json = %q omitempty=%v, want %q omitempty=%v", f.JSONName, f.OmitEmpty, tt.jsonName, tt.omitEmpty)
			}
			if !reflect.DeepEqual(f.Type, tt.ref) {
				t.Errorf("type = %+v, want %+v", f.Type, tt.ref)
			}
			if !reflect.DeepEqual(f.Tags, tt.tags) {
				t.Errorf("tags = %v, want %v", f.Tags, tt.tags)
			}
		})
	}
	inline := spec.Field("Inline")
	if inline == nil || !inline.Embedded || !inline.Inline || inline.JSONName != "" {
		t.Errorf("embedded Inline field = %+v, want embedded inline with no JSON name", inline)
	}
	if ref := u.Packages[fixture].Types["Reference"]; ref.Tags.Value("structType") != "atomic" {
		t.Errorf("Reference tags = %v, want structType=atomic", ref.Tags)
	}
	if qty := u.Lookup(&TypeRef{Kind: RefNamed, PkgPath: "k8s.io/apimachinery/pkg/util/intstr", Name: "IntOrString"}); qty == nil || !qty.CustomJSON {
		t.Errorf("IntOrString should be marked as marshalling itself: %+v", qty)
	}
}

func TestPlural(t *testing.T) {
	for kind, want := range map[string]string{
		"Pod": "Pods", "Endpoints": "Endpoints", "Ingress": "Ingresses", "NetworkPolicy": "NetworkPolicies",
		"IngressClass": "IngressClasses", "Gateway": "Gateways", "Box": "Boxes", "Mesh": "Meshes",
	} {
		if got := Plural(kind); got != want {
			t.Errorf("Plural(%q) = %q, want %q", kind, got, want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	_, err := Load(Options{Dir: moduleRoot(t), Inputs: []string{"github.com/kubeclient/client-go/cmd/codegen/testdata/does/not/exist"}})
	if err == nil {
		t.Fatal("Load of a missing package succeeded")
	}
}

func TestParseMethodErrors(t *testing.T) {
	p := &Package{Path: "example.com/x/v1"}
	typ := &Type{Package: p, Name: "Thing"}
	for _, spec := range []string{"verb=get", "Get,verb=fly", "Get,verb", "Get,verb=get,color=red"} {
		if _, err := parseMethod(p, typ, spec); err == nil {
			t.Errorf("parseMethod(%q) succeeded, want an error", spec)
		}
	}
}
