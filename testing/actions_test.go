package testing

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestActionConstructors(t *testing.T) {
	p := pod("ns", "p")
	tests := []struct {
		name                       string
		action                     Action
		verb, ns, sub, objName     string
		wantMatch, wantMatchStatus bool
	}{
		{"get", NewGetAction(podsGVR, "ns", "p"), "get", "ns", "", "p", true, false},
		{"root get", NewRootGetAction(podsGVR, "p"), "get", "", "", "p", true, false},
		{"get subresource", NewGetSubresourceAction(podsGVR, "ns", "status", "p"), "get", "ns", "status", "p", true, true},
		{"root get subresource", NewRootGetSubresourceAction(podsGVR, "status", "p"), "get", "", "status", "p", true, true},
		{"list", NewListAction(podsGVR, podKind, "ns", metav1.ListOptions{}), "list", "ns", "", "", false, false},
		{"root list", NewRootListAction(podsGVR, podKind, metav1.ListOptions{}), "list", "", "", "", false, false},
		{"create", NewCreateAction(podsGVR, "ns", p), "create", "ns", "", "", false, false},
		{"create subresource", NewCreateSubresourceAction(podsGVR, "p", "eviction", "ns", p), "create", "ns", "eviction", "p", false, false},
		{"root create subresource", NewRootCreateSubresourceAction(podsGVR, "p", "eviction", p), "create", "", "eviction", "p", false, false},
		{"update", NewUpdateAction(podsGVR, "ns", p), "update", "ns", "", "", false, false},
		{"update status", NewUpdateSubresourceAction(podsGVR, "status", "ns", p), "update", "ns", "status", "", false, false},
		{"root update status", NewRootUpdateSubresourceAction(podsGVR, "status", p), "update", "", "status", "", false, false},
		{"patch", NewPatchAction(podsGVR, "ns", "p", types.MergePatchType, []byte("{}")), "patch", "ns", "", "p", false, false},
		{"patch nested subresource", NewPatchSubresourceAction(podsGVR, "ns", "p", types.MergePatchType, nil, "a", "b"), "patch", "ns", "a/b", "p", false, false},
		{"root patch", NewRootPatchAction(podsGVR, "p", types.MergePatchType, nil), "patch", "", "", "p", false, false},
		{"delete", NewDeleteAction(podsGVR, "ns", "p"), "delete", "ns", "", "p", false, false},
		{"delete subresource", NewDeleteSubresourceAction(podsGVR, "x", "ns", "p"), "delete", "ns", "x", "p", false, false},
		{"root delete", NewRootDeleteAction(podsGVR, "p"), "delete", "", "", "p", false, false},
		{"delete collection", NewDeleteCollectionAction(podsGVR, "ns", metav1.ListOptions{}), "delete-collection", "ns", "", "", false, false},
		{"root delete collection", NewRootDeleteCollectionAction(podsGVR, metav1.ListOptions{}), "delete-collection", "", "", "", false, false},
		{"watch", NewWatchAction(podsGVR, "ns", metav1.ListOptions{}), "watch", "ns", "", "", false, false},
		{"root watch", NewRootWatchAction(podsGVR, nil), "watch", "", "", "", false, false},
		{"proxy", NewProxyGetAction(podsGVR, "ns", "https", "p", "443", "/x", nil), "get", "ns", "", "p", true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.action
			if a.GetVerb() != tc.verb || a.GetNamespace() != tc.ns || a.GetSubresource() != tc.sub || a.GetResource() != podsGVR {
				t.Errorf("verb=%q ns=%q sub=%q resource=%v", a.GetVerb(), a.GetNamespace(), a.GetSubresource(), a.GetResource())
			}
			if named, ok := a.(interface{ GetName() string }); ok && named.GetName() != tc.objName {
				t.Errorf("name = %q, want %q", named.GetName(), tc.objName)
			}
			if got := a.Matches("GET", "Pods"); got != tc.wantMatch {
				t.Errorf(`Matches("GET", "Pods") = %v`, got)
			}
			if got := a.Matches("get", "pods/status"); got != tc.wantMatchStatus {
				t.Errorf(`Matches("get", "pods/status") = %v`, got)
			}
			if cp := a.DeepCopy(); cp.GetVerb() != a.GetVerb() || cp.GetSubresource() != a.GetSubresource() {
				t.Errorf("DeepCopy lost fields: %#v", cp)
			}
		})
	}
}

func TestListAndWatchRestrictions(t *testing.T) {
	opts := metav1.ListOptions{LabelSelector: "app=web", FieldSelector: "spec.nodeName=n1", ResourceVersion: "42"}
	l := NewListActionWithOptions(podsGVR, podKind, "ns", opts)
	if l.GetListRestrictions().Labels.String() != "app=web" || l.GetListRestrictions().Fields.String() != "spec.nodeName=n1" {
		t.Errorf("list restrictions = %+v", l.GetListRestrictions())
	}
	if l.GetListOptions().ResourceVersion != "42" || l.GetKind() != podKind {
		t.Errorf("list options = %+v kind %v", l.GetListOptions(), l.GetKind())
	}
	w := NewWatchActionWithOptions(podsGVR, "ns", opts)
	if r := w.GetWatchRestrictions(); r.ResourceVersion != "42" || r.Labels.String() != "app=web" {
		t.Errorf("watch restrictions = %+v", r)
	}
	dc := NewDeleteCollectionActionWithOptions(podsGVR, "ns", metav1.DeleteOptions{}, opts)
	if dc.GetListRestrictions().Fields.String() != "spec.nodeName=n1" {
		t.Errorf("delete-collection restrictions = %+v", dc.GetListRestrictions())
	}
}

func TestExtractFromListOptions(t *testing.T) {
	tests := []struct {
		name                string
		opts                interface{}
		labels, fields, rev string
		everything          bool
	}{
		{"value", metav1.ListOptions{LabelSelector: "a=b", FieldSelector: "x=y", ResourceVersion: "3"}, "a=b", "x=y", "3", false},
		{"pointer", &metav1.ListOptions{LabelSelector: "a=b"}, "a=b", "", "", false},
		{"nil", nil, "", "", "", true},
		{"empty", metav1.ListOptions{}, "", "", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, f, rv := ExtractFromListOptions(tc.opts)
			if l.String() != tc.labels || f.String() != tc.fields || rv != tc.rev {
				t.Errorf("got %q %q %q", l, f, rv)
			}
			if tc.everything && (!l.Empty() || !f.Empty()) {
				t.Errorf("missing selectors should select everything")
			}
		})
	}
	// A malformed selector selects nothing rather than everything.
	l, _, _ := ExtractFromListOptions(metav1.ListOptions{LabelSelector: "a in ("})
	if l.Matches(nil) || l.Empty() {
		t.Errorf("malformed label selector selects something")
	}
}

func TestActionDeepCopyIsIndependent(t *testing.T) {
	patch := NewPatchAction(podsGVR, "ns", "p", types.MergePatchType, []byte(`{"a":1}`))
	cp := patch.DeepCopy().(PatchActionImpl)
	patch.Patch[0] = 'X'
	if string(cp.GetPatch()) != `{"a":1}` {
		t.Errorf("patch bytes shared: %s", cp.GetPatch())
	}
	proxy := NewProxyGetAction(podsGVR, "ns", "http", "p", "80", "/", map[string]string{"a": "1"})
	pcp := proxy.DeepCopy().(ProxyGetActionImpl)
	proxy.Params["a"] = "2"
	if pcp.GetParams()["a"] != "1" {
		t.Errorf("params shared")
	}
	obj := pod("ns", "p")
	upd := NewUpdateAction(podsGVR, "ns", obj)
	ucp := upd.DeepCopy().(UpdateActionImpl)
	obj.Name = "changed"
	if ucp.GetObject().(*corev1.Pod).Name != "p" {
		t.Errorf("object shared")
	}
	g := GenericActionImpl{ActionImpl: ActionImpl{Verb: "custom"}, Value: obj}
	gcp := g.DeepCopy().(GenericActionImpl)
	obj.Name = "again"
	if gcp.GetValue().(*corev1.Pod).Name != "changed" {
		t.Errorf("generic runtime.Object value shared")
	}
}

func TestNewListActionKeepsSelectorsOnly(t *testing.T) {
	a := NewListAction(podsGVR, podKind, "ns", metav1.ListOptions{LabelSelector: "b=2,a=1", ResourceVersion: "5", Limit: 3})
	want := metav1.ListOptions{LabelSelector: "a=1,b=2"}
	if a.ListOptions != want {
		t.Errorf("ListOptions = %+v, want %+v", a.ListOptions, want)
	}
	bad := NewListAction(podsGVR, podKind, "ns", metav1.ListOptions{LabelSelector: "a in ("})
	c := newTestClientset(t, false, pod("ns", "p"))
	if _, err := c.Invokes(bad, &corev1.PodList{}); err == nil {
		t.Error("a malformed selector listed objects")
	}
}
