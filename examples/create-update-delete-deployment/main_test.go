package main

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/kubernetes/fake"
	clienttesting "github.com/kubeclient/client-go/testing"
)

func TestLifecycle(t *testing.T) {
	client := fake.NewClientset()
	// The first update conflicts, as when someone else changed the object.
	var updates atomic.Int32
	client.PrependReactor("update", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		if updates.Add(1) == 1 {
			return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "deployments"}, deploymentName, nil)
		}
		return false, nil, nil
	})
	// Capture what was written before the delete removes it.
	var updated *appsv1.Deployment
	client.PrependReactor("delete", "deployments", func(action clienttesting.Action) (bool, runtime.Object, error) {
		obj, err := client.Tracker().Get(action.GetResource(), action.GetNamespace(), deploymentName)
		if err == nil {
			updated = obj.(*appsv1.Deployment)
		}
		return false, nil, nil
	})

	var out bytes.Buffer
	if err := lifecycle(context.Background(), client, "ns1", &out); err != nil {
		t.Fatal(err)
	}
	if updates.Load() != 2 {
		t.Errorf("updates = %d, want 2 (one conflict, one retry)", updates.Load())
	}
	if updated == nil || *updated.Spec.Replicas != 1 || updated.Spec.Template.Spec.Containers[0].Image != "nginx:1.28" {
		t.Errorf("deployment before delete = %+v, want replicas=1 image=nginx:1.28", updated)
	}
	if _, err := client.AppsV1().Deployments("ns1").Get(context.Background(), deploymentName, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("after lifecycle Get error = %v, want NotFound", err)
	}
	for _, want := range []string{"created deployment ns1/demo-deployment", "demo-deployment (1 replicas)", "deleted deployment"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestLifecycleFailsWhenDeploymentExists(t *testing.T) {
	existing := newDeployment()
	existing.Namespace = "ns1"
	err := lifecycle(context.Background(), fake.NewClientset(existing), "ns1", &bytes.Buffer{})
	if !apierrors.IsAlreadyExists(err) {
		t.Fatalf("error = %v, want AlreadyExists", err)
	}
}
