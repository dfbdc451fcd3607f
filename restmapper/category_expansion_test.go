package restmapper_test

import (
	"context"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/restmapper"
)

func TestDiscoveryCategoryExpander(t *testing.T) {
	s := newDiscoveryServer(t, append(cluster(), cronTabGroup("stable.example.com")))
	dc, err := discovery.NewDiscoveryClientForConfig(s.config())
	if err != nil {
		t.Fatal(err)
	}
	e := restmapper.NewDiscoveryCategoryExpander(dc)
	got, ok := e.Expand("all")
	want := []schema.GroupResource{
		{Resource: "pods"}, {Resource: "services"},
		{Group: "apps", Resource: "deployments"}, {Group: "apps", Resource: "deployments"},
		{Group: "autoscaling", Resource: "horizontalpodautoscalers"},
		{Group: "stable.example.com", Resource: "crontabs"},
	}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("Expand(all) = %v, %v; want %v", got, ok, want)
	}
	if got, ok := e.Expand("nothing"); ok || len(got) != 0 {
		t.Errorf("Expand(nothing) = %v, %v", got, ok)
	}

	withCtx := restmapper.NewDiscoveryCategoryExpanderWithContext(dc)
	if got, ok := withCtx.ExpandWithContext(context.Background(), "all"); !ok || len(got) != len(want) {
		t.Errorf("ExpandWithContext(all) = %v, %v", got, ok)
	}

	s.fail("/api")
	s.fail("/apis")
	if got, ok := e.Expand("all"); ok || got != nil {
		t.Errorf("Expand without discovery = %v, %v; want nothing, false", got, ok)
	}
}

func TestSimpleAndUnionCategoryExpanders(t *testing.T) {
	pods := schema.GroupResource{Resource: "pods"}
	jobs := schema.GroupResource{Group: "batch", Resource: "jobs"}
	crons := schema.GroupResource{Group: "batch", Resource: "cronjobs"}
	first := restmapper.SimpleCategoryExpander{Expansions: map[string][]schema.GroupResource{"all": {pods, jobs}}}
	second := restmapper.SimpleCategoryExpander{Expansions: map[string][]schema.GroupResource{"all": {jobs, crons}, "batch": {jobs}}}

	tests := []struct {
		category string
		want     []schema.GroupResource
		wantOK   bool
	}{
		{"all", []schema.GroupResource{pods, jobs, crons}, true},
		{"batch", []schema.GroupResource{jobs}, true},
		{"none", []schema.GroupResource{}, false},
	}
	union := restmapper.UnionCategoryExpander{first, second}
	unionCtx := restmapper.UnionCategoryExpanderWithContext{first, restmapper.ToCategoryExpanderWithContext(second)}
	for _, tc := range tests {
		got, ok := union.Expand(tc.category)
		if ok != tc.wantOK || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Union.Expand(%q) = %v, %v; want %v, %v", tc.category, got, ok, tc.want, tc.wantOK)
		}
		got, ok = unionCtx.ExpandWithContext(context.Background(), tc.category)
		if ok != tc.wantOK || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("UnionWithContext.ExpandWithContext(%q) = %v, %v", tc.category, got, ok)
		}
	}
	if got, ok := first.ExpandWithContext(context.Background(), "all"); !ok || len(got) != 2 {
		t.Errorf("SimpleCategoryExpander.ExpandWithContext = %v, %v", got, ok)
	}
	if restmapper.ToCategoryExpanderWithContext(nil) != nil {
		t.Error("ToCategoryExpanderWithContext(nil) != nil")
	}
	adapted := restmapper.ToCategoryExpanderWithContext(legacyOnly{first})
	if got, ok := adapted.ExpandWithContext(context.Background(), "all"); !ok || len(got) != 2 {
		t.Errorf("adapted expander = %v, %v", got, ok)
	}
}

// legacyOnly hides the ExpandWithContext method of its expander.
type legacyOnly struct{ e restmapper.CategoryExpander }

func (l legacyOnly) Expand(c string) ([]schema.GroupResource, bool) { return l.e.Expand(c) }

func TestDiscoveryCategoryExpanderWithoutClient(t *testing.T) {
	if got, ok := restmapper.NewDiscoveryCategoryExpander(nil).Expand("all"); ok || got != nil {
		t.Errorf("Expand with a nil client = %v, %v", got, ok)
	}
	if got, ok := restmapper.NewDiscoveryCategoryExpanderWithContext(nil).ExpandWithContext(context.Background(), "all"); ok || got != nil {
		t.Errorf("ExpandWithContext with a nil client = %v, %v", got, ok)
	}
}
