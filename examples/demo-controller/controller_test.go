package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/kubernetes/fake"
	clienttesting "github.com/kubeclient/client-go/testing"
	"github.com/kubeclient/client-go/tools/record"
)

const ns = "demo"

func input(name, replicas string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: ns, UID: types.UID("uid-" + name), ResourceVersion: "7",
			Labels: map[string]string{ManagedLabel: "true"},
		},
		Data: map[string]string{ReplicasKey: replicas},
	}
}

func statusOf(in *corev1.ConfigMap, replicas string) *corev1.ConfigMap {
	s := desiredStatus(in, 0)
	s.Data[ReplicasKey] = replicas
	return s
}

type harness struct {
	client     *fake.Clientset
	controller *Controller
	recorder   *record.FakeRecorder
	out        *bytes.Buffer
}

// newHarness builds a controller over a fake clientset holding objs, with the
// informer's cache filled directly so reconcile can be called without
// starting any goroutine.
func newHarness(t *testing.T, objs ...runtime.Object) *harness {
	t.Helper()
	client := fake.NewClientset(objs...)
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns))
	configMaps := factory.Core().V1().ConfigMaps()
	for _, obj := range objs {
		if err := configMaps.Informer().GetIndexer().Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	recorder := record.NewFakeRecorder(10)
	out := &bytes.Buffer{}
	c, err := NewController(client, configMaps, recorder, out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.queue.ShutDown)
	return &harness{client: client, controller: c, recorder: recorder, out: out}
}

func (h *harness) events() []string {
	var got []string
	for {
		select {
		case e := <-h.recorder.Events:
			got = append(got, e)
		default:
			return got
		}
	}
}

func TestReconcile(t *testing.T) {
	alpha := input("alpha", "3")
	foreign := statusOf(alpha, "3")
	foreign.OwnerReferences[0].UID = "someone-else"

	tests := []struct {
		name         string
		objs         []runtime.Object
		key          string
		wantOutcome  Outcome
		wantErr      string
		wantReplicas string // of alpha-status afterwards; "" means it must not exist
		wantEvent    string // prefix of the only event recorded; "" means none
		wantVerbs    []string
	}{
		{
			name: "creates the missing status", objs: []runtime.Object{alpha}, key: "demo/alpha",
			wantOutcome: OutcomeCreated, wantReplicas: "3",
			wantEvent: "Normal StatusCreated created alpha-status with 3 replicas", wantVerbs: []string{"create"},
		},
		{
			name: "updates a stale status", objs: []runtime.Object{alpha, statusOf(alpha, "1")}, key: "demo/alpha",
			wantOutcome: OutcomeUpdated, wantReplicas: "3",
			wantEvent: "Normal StatusUpdated alpha-status now has 3 replicas (was 1)", wantVerbs: []string{"update"},
		},
		{
			name: "leaves a current status alone", objs: []runtime.Object{alpha, statusOf(alpha, "3")}, key: "demo/alpha",
			wantOutcome: OutcomeUnchanged, wantReplicas: "3",
		},
		{
			name: "reports an invalid replica count and does not retry", objs: []runtime.Object{input("alpha", "lots")}, key: "demo/alpha",
			wantOutcome: OutcomeInvalid,
			wantEvent:   `Warning InvalidReplicas not reconciled: data key "replicas" must be a non-negative integer, got "lots"`,
		},
		{
			name: "reports a negative replica count", objs: []runtime.Object{input("alpha", "-1")}, key: "demo/alpha",
			wantOutcome: OutcomeInvalid, wantEvent: "Warning InvalidReplicas",
		},
		{
			name: "deletes the status of a deleted input", objs: []runtime.Object{statusOf(alpha, "3")}, key: "demo/alpha",
			wantOutcome: OutcomeDeleted, wantVerbs: []string{"delete"},
		},
		{
			name: "nothing to do for a deleted input without status", key: "demo/alpha",
			wantOutcome: OutcomeGone,
		},
		{
			name: "refuses a status owned by another object", objs: []runtime.Object{alpha, foreign}, key: "demo/alpha",
			wantErr: "not controlled by input uid uid-alpha", wantReplicas: "3",
			wantEvent: "Warning StatusNotOwned alpha-status exists",
		},
		{
			name: "rejects a malformed key", key: "a/b/c", wantErr: `bad queue key "a/b/c"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.objs...)
			h.client.ClearActions()

			outcome, err := h.controller.reconcile(context.Background(), tt.key)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			if outcome != tt.wantOutcome {
				t.Errorf("outcome = %q, want %q", outcome, tt.wantOutcome)
			}

			status, err := h.client.CoreV1().ConfigMaps(ns).Get(context.Background(), "alpha-status", metav1.GetOptions{})
			switch {
			case tt.wantReplicas == "" && !apierrors.IsNotFound(err):
				t.Errorf("alpha-status: got %v, %v; want NotFound", status, err)
			case tt.wantReplicas != "" && err != nil:
				t.Errorf("alpha-status: %v", err)
			case tt.wantReplicas != "":
				if got := status.Data[ReplicasKey]; got != tt.wantReplicas {
					t.Errorf("alpha-status replicas = %q, want %q", got, tt.wantReplicas)
				}
				if tt.wantErr == "" && !ownedBy(status, alpha.UID) {
					t.Errorf("alpha-status owner references = %+v, want controller uid-alpha", status.OwnerReferences)
				}
			}

			events := h.events()
			switch {
			case tt.wantEvent == "" && len(events) != 0:
				t.Errorf("events = %q, want none", events)
			case tt.wantEvent != "" && (len(events) != 1 || !strings.HasPrefix(events[0], tt.wantEvent)):
				t.Errorf("events = %q, want one starting with %q", events, tt.wantEvent)
			}

			var verbs []string
			for _, a := range h.client.Actions() {
				if a.GetVerb() != "get" && a.GetVerb() != "list" && a.GetVerb() != "watch" {
					verbs = append(verbs, a.GetVerb())
				}
			}
			if strings.Join(verbs, ",") != strings.Join(tt.wantVerbs, ",") {
				t.Errorf("writes = %v, want %v", verbs, tt.wantVerbs)
			}
		})
	}
}

func TestCreatedStatusCarriesOwnerAndLabels(t *testing.T) {
	h := newHarness(t, input("alpha", "2"))
	if _, err := h.controller.reconcile(context.Background(), "demo/alpha"); err != nil {
		t.Fatal(err)
	}
	status, err := h.client.CoreV1().ConfigMaps(ns).Get(context.Background(), "alpha-status", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if status.Labels[DerivedFromLabel] != "alpha" {
		t.Errorf("labels = %v, want %s=alpha", status.Labels, DerivedFromLabel)
	}
	if got := inputOf(status); got != "alpha" {
		t.Errorf("inputOf = %q, want alpha", got)
	}
	if status.Data[ObservedKey] != "7" {
		t.Errorf("observed resource version = %q, want 7", status.Data[ObservedKey])
	}
}

func TestEnqueueMapsStatusToItsInput(t *testing.T) {
	alpha := input("alpha", "1")
	unrelated := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: ns}}
	h := newHarness(t)
	c := h.controller
	c.enqueueFor(statusOf(alpha, "1"))
	c.enqueueFor(unrelated)
	c.enqueueFor(alpha) // same key: the queue collapses it
	if got := c.queue.Len(); got != 1 {
		t.Fatalf("queue length = %d, want 1", got)
	}
	key, _ := c.queue.Get()
	if key != "demo/alpha" {
		t.Errorf("key = %q, want demo/alpha", key)
	}
}

// TestRunReactsToChanges runs the whole controller (informers, workers) over
// the fake clientset, including a conflict that must be retried.
func TestRunReactsToChanges(t *testing.T) {
	client := fake.NewClientset()
	var conflicts atomic.Int32
	client.PrependReactor("update", "configmaps", func(action clienttesting.Action) (bool, runtime.Object, error) {
		obj := action.(clienttesting.UpdateAction).GetObject().(*corev1.ConfigMap)
		if obj.Name == "beta-status" && conflicts.Add(1) == 1 {
			return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "beta-status", nil)
		}
		return false, nil, nil
	})

	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns))
	var out syncBuffer
	c, err := NewController(client, factory.Core().V1().ConfigMaps(), record.NewFakeRecorder(100), &out)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	factory.Start(ctx.Done())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, 2) }()

	cms := client.CoreV1().ConfigMaps(ns)
	waitReplicas := func(name, want string) {
		t.Helper()
		err := wait.PollUntilContextCancel(ctx, 10*time.Millisecond, true, func(ctx context.Context) (bool, error) {
			s, err := cms.Get(ctx, name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return want == "", nil
			}
			return err == nil && s.Data[ReplicasKey] == want, err
		})
		if err != nil {
			t.Fatalf("waiting for %s replicas=%q: %v\nlog:\n%s", name, want, err, out.String())
		}
	}

	if _, err := cms.Create(ctx, input("beta", "2"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitReplicas("beta-status", "2")

	beta, err := cms.Get(ctx, "beta", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	beta.Data[ReplicasKey] = "4"
	if _, err := cms.Update(ctx, beta, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitReplicas("beta-status", "4")

	if err := cms.Delete(ctx, "beta", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitReplicas("beta-status", "")

	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	stats := c.Stats()
	if stats.Retries < 1 {
		t.Errorf("retries = %d, want at least 1 (an update conflict was injected)\nlog:\n%s", stats.Retries, out.String())
	}
	if stats.Reconciled < 3 {
		t.Errorf("reconciled = %d, want at least 3 (create, update, delete)", stats.Reconciled)
	}
	if !strings.Contains(out.String(), "demo/beta retry 1") {
		t.Errorf("log has no retry line:\n%s", out.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the controller's workers and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestWholeDemo runs the scripted scenario, the controller, leader election
// and the event broadcaster together against the fake clientset.
func TestWholeDemo(t *testing.T) {
	client := fake.NewClientset()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out syncBuffer
	if err := runDemo(ctx, cancel, client, ns, time.Now(), &out); err != nil {
		t.Fatalf("runDemo: %v\n%s", err, out.String())
	}
	log := out.String()
	for _, want := range []string{
		"leader: ", "holds lease demo/demo-controller",
		"controller: demo/alpha -> created status object",
		"controller: demo/beta -> updated status object",
		"demo: verified gamma-status reports replicas=3",
		"controller: demo/delta -> invalid input, recorded a Warning event",
		"controller: demo/alpha -> input gone, deleted status object",
		"demo: scenario complete",
		"released lease demo/demo-controller",
		"summary: ",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	left, err := client.CoreV1().ConfigMaps(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(left.Items) != 0 {
		t.Errorf("%d ConfigMaps left after the demo, want 0", len(left.Items))
	}
	events, err := client.CoreV1().Events(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]bool{}
	for _, e := range events.Items {
		reasons[e.Reason] = true
	}
	for _, want := range []string{ReasonStatusCreated, ReasonStatusUpdated, ReasonInvalidReplicas} {
		if !reasons[want] {
			t.Errorf("no %s event recorded; got %v", want, reasons)
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("output:\n%s", log)
	}
}
