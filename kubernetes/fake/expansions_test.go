package fake

import (
	"context"
	"io"
	"sort"
	"strings"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	certificatesv1beta1 "k8s.io/api/certificates/v1beta1"
	corev1 "k8s.io/api/core/v1"
	eventsv1beta1 "k8s.io/api/events/v1beta1"
	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	applyautoscalingv1 "github.com/kubeclient/client-go/applyconfigurations/autoscaling/v1"
	clientsetscheme "github.com/kubeclient/client-go/kubernetes/scheme"
	restclient "github.com/kubeclient/client-go/rest"
	clienttesting "github.com/kubeclient/client-go/testing"
)

// lastAction returns the last recorded action, failing when none is.
func lastAction(t *testing.T, cs *Clientset) clienttesting.Action {
	t.Helper()
	actions := cs.Actions()
	if len(actions) == 0 {
		t.Fatal("no action recorded")
	}
	return actions[len(actions)-1]
}

func TestPodExpansions(t *testing.T) {
	ctx := context.Background()
	cs := NewClientset(pod("bind-me", ""), pod("evict-v1", "n"), pod("evict-beta", "n"), pod("evict-old", "n"), pod("policy-v1", "n"), pod("policy-beta", "n"))
	pods := cs.CoreV1().Pods("default")

	if err := pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "bind-me", Namespace: "default"}, Target: corev1.ObjectReference{Name: "node-x"}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("Bind: %v", err)
	}
	if p, err := pods.Get(ctx, "bind-me", metav1.GetOptions{}); err != nil || p.Spec.NodeName != "node-x" {
		t.Errorf("after Bind: node = %q, err = %v; want node-x", p.Spec.NodeName, err)
	}

	evictions := []struct {
		name  string
		evict func() error
	}{
		{"evict-v1", func() error {
			return pods.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "evict-v1", Namespace: "default"}})
		}},
		{"evict-beta", func() error {
			return pods.EvictV1beta1(ctx, &policyv1beta1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "evict-beta", Namespace: "default"}})
		}},
		{"evict-old", func() error {
			return pods.Evict(ctx, &policyv1beta1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "evict-old", Namespace: "default"}})
		}},
		{"policy-v1", func() error {
			return cs.PolicyV1().Evictions("default").Evict(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "policy-v1", Namespace: "default"}})
		}},
		{"policy-beta", func() error {
			return cs.PolicyV1beta1().Evictions("default").Evict(ctx, &policyv1beta1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "policy-beta", Namespace: "default"}})
		}},
	}
	for _, tc := range evictions {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.evict(); err != nil {
				t.Fatalf("evict: %v", err)
			}
			a := lastAction(t, cs)
			if !a.Matches("create", "pods") || a.GetSubresource() != "eviction" {
				t.Errorf("recorded %v, want a create of pods/eviction", a)
			}
			if _, err := pods.Get(ctx, tc.name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("evicted pod still there (err %v)", err)
			}
		})
	}

	getBinding, ok := pods.(interface {
		GetBinding(name string) (*corev1.Binding, error)
	})
	if !ok {
		t.Fatal("the fake pods client has no GetBinding")
	}
	cs.PrependReactor("get", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		return true, &corev1.Binding{Target: corev1.ObjectReference{Name: "node-x"}}, nil
	})
	if b, err := getBinding.GetBinding("bind-me"); err != nil || b.Target.Name != "node-x" {
		t.Errorf("GetBinding = %v, %v", b, err)
	}

	body, err := pods.GetLogs("bind-me", &corev1.PodLogOptions{Container: "c"}).Do(ctx).Raw()
	if err != nil || string(body) != "fake logs" {
		t.Errorf("GetLogs = %q, %v; want \"fake logs\"", body, err)
	}
	if a := lastAction(t, cs); a.GetSubresource() != "log" || a.GetVerb() != "get" {
		t.Errorf("GetLogs recorded %v", a)
	}
	stream, err := pods.GetLogs("bind-me", &corev1.PodLogOptions{}).Stream(ctx)
	if err != nil {
		t.Fatalf("GetLogs Stream: %v", err)
	}
	streamed, _ := io.ReadAll(stream)
	stream.Close()
	if string(streamed) != "fake logs" {
		t.Errorf("streamed logs = %q", streamed)
	}
}

// cannedResponse is a ResponseWrapper with a fixed body.
type cannedResponse string

func (r cannedResponse) DoRaw(context.Context) ([]byte, error) { return []byte(r), nil }
func (r cannedResponse) Stream(context.Context) (io.ReadCloser, error) {
	return nil, io.ErrUnexpectedEOF
}

func TestProxyGet(t *testing.T) {
	ctx := context.Background()
	cs := NewClientset()
	cs.AddProxyReactor("*", func(action clienttesting.Action) (bool, restclient.ResponseWrapper, error) {
		pa := action.(clienttesting.ProxyGetAction)
		return true, cannedResponse(action.GetResource().Resource + ":" + pa.GetName() + ":" + pa.GetPort() + pa.GetPath()), nil
	})
	for _, tc := range []struct {
		name string
		get  restclient.ResponseWrapper
		want string
	}{
		{"pod", cs.CoreV1().Pods("ns").ProxyGet("http", "p", "8080", "/healthz", nil), "pods:p:8080/healthz"},
		{"service", cs.CoreV1().Services("ns").ProxyGet("https", "s", "443", "/metrics", map[string]string{"a": "b"}), "services:s:443/metrics"},
	} {
		got, err := tc.get.DoRaw(ctx)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s ProxyGet = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestClusterScopedExpansions(t *testing.T) {
	ctx := context.Background()
	cs := NewClientset(
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}, Spec: corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"kubernetes"}}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}},
		&certificatesv1beta1.CertificateSigningRequest{ObjectMeta: metav1.ObjectMeta{Name: "csr"}},
	)
	ns, err := cs.CoreV1().Namespaces().Get(ctx, "ns", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ns.Spec.Finalizers = nil
	if _, err := cs.CoreV1().Namespaces().Finalize(ctx, ns, metav1.UpdateOptions{}); err != nil {
		t.Errorf("Finalize: %v", err)
	}
	if a := lastAction(t, cs); !a.Matches("update", "namespaces") || a.GetSubresource() != "finalize" {
		t.Errorf("Finalize recorded %v", a)
	}

	node, err := cs.CoreV1().Nodes().PatchStatus(ctx, "n", []byte(`{"status":{"phase":"Running"}}`))
	if err != nil || node.Status.Phase != corev1.NodeRunning {
		t.Errorf("PatchStatus = %v, %v", node, err)
	}

	csr := &certificatesv1beta1.CertificateSigningRequest{ObjectMeta: metav1.ObjectMeta{Name: "csr"}}
	csr.Status.Conditions = []certificatesv1beta1.CertificateSigningRequestCondition{{Type: certificatesv1beta1.CertificateApproved, Status: corev1.ConditionTrue}}
	if _, err := cs.CertificatesV1beta1().CertificateSigningRequests().UpdateApproval(ctx, csr, metav1.UpdateOptions{}); err != nil {
		t.Errorf("UpdateApproval: %v", err)
	}
	if a := lastAction(t, cs); a.GetSubresource() != "approval" {
		t.Errorf("UpdateApproval recorded %v", a)
	}
}

func TestEventExpansions(t *testing.T) {
	ctx := context.Background()
	cs := NewClientset(pod("p", ""))
	events := cs.CoreV1().Events("default")
	ev := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "e", Namespace: "default"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "p", Namespace: "default"},
		Reason:         "Started",
	}
	if _, err := events.CreateWithEventNamespaceWithContext(ctx, ev); err != nil {
		t.Fatalf("CreateWithEventNamespace: %v", err)
	}
	stored, err := events.Get(ctx, "e", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stored.Reason = "Restarted"
	if _, err := events.UpdateWithEventNamespace(stored); err != nil {
		t.Fatalf("UpdateWithEventNamespace: %v", err)
	}
	if got, err := events.PatchWithEventNamespace(stored, []byte(`{"message":"hi"}`)); err != nil || got.Message != "hi" {
		t.Fatalf("PatchWithEventNamespace = %v, %v", got, err)
	}
	p, _ := cs.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{})
	p.Kind, p.APIVersion = "Pod", "v1"
	found, err := events.Search(clientsetscheme.Scheme, p)
	if err != nil || len(found.Items) != 1 {
		t.Errorf("Search = %v, %v; want the one event about p", found, err)
	}
	sel := events.GetFieldSelector(ptrTo("p"), nil, ptrTo("Pod"), nil)
	terms := strings.Split(sel.String(), ",")
	sort.Strings(terms)
	if got := strings.Join(terms, ","); got != "involvedObject.kind=Pod,involvedObject.name=p" {
		t.Errorf("GetFieldSelector = %q", got)
	}

	beta := cs.EventsV1beta1().Events("default")
	be := &eventsv1beta1.Event{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default"}, Reason: "R"}
	if _, err := beta.CreateWithEventNamespace(be); err != nil {
		t.Fatalf("v1beta1 CreateWithEventNamespace: %v", err)
	}
	be, _ = beta.Get(ctx, "b", metav1.GetOptions{})
	be.Note = "n"
	if _, err := beta.UpdateWithEventNamespace(be); err != nil {
		t.Fatalf("v1beta1 UpdateWithEventNamespace: %v", err)
	}
	if got, err := beta.PatchWithEventNamespace(be, []byte(`{"note":"patched"}`)); err != nil || got.Note != "patched" {
		t.Fatalf("v1beta1 PatchWithEventNamespace = %v, %v", got, err)
	}
}

func ptrTo(s string) *string { return &s }

func TestExtendedMethods(t *testing.T) {
	ctx := context.Background()
	cs := NewClientset(deployment("web", 2), &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "sa", Namespace: "default"}})
	deps := cs.AppsV1().Deployments("default")
	scale, err := deps.UpdateScale(ctx, "web", &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Spec: autoscalingv1.ScaleSpec{Replicas: 4}}, metav1.UpdateOptions{})
	if err != nil || scale.Spec.Replicas != 4 {
		t.Fatalf("UpdateScale = %v, %v", scale, err)
	}
	if d, _ := deps.Get(ctx, "web", metav1.GetOptions{}); *d.Spec.Replicas != 4 {
		t.Errorf("spec.replicas = %d after UpdateScale, want 4", *d.Spec.Replicas)
	}
	_, err = deps.ApplyScale(ctx, "web", applyautoscalingv1.Scale().WithSpec(applyautoscalingv1.ScaleSpec().WithReplicas(6)), metav1.ApplyOptions{FieldManager: "t", Force: true})
	if a := lastAction(t, cs); !a.Matches("patch", "deployments") || a.GetSubresource() != "scale" {
		t.Errorf("ApplyScale recorded %v (err %v)", a, err)
	}
	if _, err := deps.ApplyScale(ctx, "web", nil, metav1.ApplyOptions{}); err == nil {
		t.Error("ApplyScale(nil) succeeded")
	}

	cs.PrependReactor("create", "serviceaccounts", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "token" {
			return false, nil, nil
		}
		return true, &authenticationv1.TokenRequest{Status: authenticationv1.TokenRequestStatus{Token: "t0k3n"}}, nil
	})
	tr, err := cs.CoreV1().ServiceAccounts("default").CreateToken(ctx, "sa", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil || tr.Status.Token != "t0k3n" {
		t.Errorf("CreateToken = %v, %v", tr, err)
	}

	rollback := &extensionsv1beta1.DeploymentRollback{Name: "web"}
	cs.PrependReactor("create", "deployments", func(action clienttesting.Action) (bool, runtime.Object, error) {
		return action.GetSubresource() == "rollback", nil, nil
	})
	if err := cs.ExtensionsV1beta1().Deployments("default").Rollback(ctx, rollback, metav1.CreateOptions{}); err != nil {
		t.Errorf("Rollback: %v", err)
	}
	if a := lastAction(t, cs); a.GetSubresource() != "rollback" {
		t.Errorf("Rollback recorded %v", a)
	}
}

func TestRESTClientAndAddToScheme(t *testing.T) {
	if rc := NewSimpleClientset().AppsV1().RESTClient(); rc == nil {
		t.Error("RESTClient returned an untyped nil")
	}
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if !s.Recognizes(corev1.SchemeGroupVersion.WithKind("Pod")) {
		t.Error("AddToScheme did not register core/v1")
	}
}
