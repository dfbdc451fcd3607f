package fake_test

import (
	"context"
	"errors"
	"testing"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/scale/fake"
	core "github.com/kubeclient/client-go/testing"
)

func TestFakeScaleClientRecordsAndReacts(t *testing.T) {
	f := &fake.FakeScaleClient{}
	f.AddReactor("get", "deployments", func(action core.Action) (bool, runtime.Object, error) {
		get := action.(core.GetAction)
		return true, &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: get.GetName(), Namespace: get.GetNamespace()}, Spec: autoscalingv1.ScaleSpec{Replicas: 3}}, nil
	})
	f.AddReactor("update", "deployments", func(action core.Action) (bool, runtime.Object, error) {
		return true, action.(core.UpdateAction).GetObject(), nil
	})
	f.AddReactor("patch", "deployments", func(action core.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("patch refused")
	})

	ctx := context.Background()
	deployments := schema.GroupResource{Group: "apps", Resource: "deployments"}
	got, err := f.Scales("ns").Get(ctx, deployments, "web", metav1.GetOptions{})
	if err != nil || got.Spec.Replicas != 3 || got.Name != "web" || got.Namespace != "ns" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	updated, err := f.Scales("ns").Update(ctx, deployments, &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: autoscalingv1.ScaleSpec{Replicas: 7}}, metav1.UpdateOptions{})
	if err != nil || updated.Spec.Replicas != 7 {
		t.Fatalf("Update = %+v, %v", updated, err)
	}
	gvr := deployments.WithVersion("v1")
	if _, err := f.Scales("ns").Patch(ctx, gvr, "web", types.MergePatchType, []byte(`{}`), metav1.PatchOptions{}); err == nil || err.Error() != "patch refused" {
		t.Fatalf("Patch err = %v", err)
	}

	actions := f.Actions()
	if len(actions) != 3 {
		t.Fatalf("recorded %d actions, want 3", len(actions))
	}
	for i, want := range []string{"get", "update", "patch"} {
		a := actions[i]
		if a.GetVerb() != want || a.GetSubresource() != "scale" || a.GetNamespace() != "ns" || a.GetResource().Resource != "deployments" {
			t.Errorf("action %d = %s %v/%s in %q", i, a.GetVerb(), a.GetResource(), a.GetSubresource(), a.GetNamespace())
		}
	}
	if p := actions[2].(core.PatchAction); p.GetPatchType() != types.MergePatchType || p.GetResource() != gvr {
		t.Errorf("patch action = %+v", p)
	}
}

func TestFakeScaleClientWithoutReactor(t *testing.T) {
	f := &fake.FakeScaleClient{}
	got, err := f.Scales("").Get(context.Background(), schema.GroupResource{Resource: "things"}, "x", metav1.GetOptions{})
	// Without a reactor, Fake answers with the empty default object.
	if err != nil || got == nil || got.Spec.Replicas != 0 {
		t.Errorf("Get without reactor = %v, %v; want an empty Scale", got, err)
	}
	if len(f.Actions()) != 1 {
		t.Errorf("recorded %d actions, want 1", len(f.Actions()))
	}
	f.AddReactor("*", "*", func(core.Action) (bool, runtime.Object, error) {
		return true, &metav1.Status{}, nil
	})
	if _, err := f.Scales("").Get(context.Background(), schema.GroupResource{Resource: "things"}, "x", metav1.GetOptions{}); err == nil {
		t.Error("a reactor answering a non-Scale went unnoticed")
	}
}
