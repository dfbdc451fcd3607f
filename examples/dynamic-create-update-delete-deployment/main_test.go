package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/dynamic/fake"
	clienttesting "github.com/kubeclient/client-go/testing"
)

func newClient() *fake.FakeDynamicClient {
	return fake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{deploymentsResource: "DeploymentList"})
}

func TestLifecycle(t *testing.T) {
	client := newClient()
	var beforeDelete *unstructured.Unstructured
	client.PrependReactor("delete", "deployments", func(action clienttesting.Action) (bool, runtime.Object, error) {
		obj, err := client.Tracker().Get(action.GetResource(), action.GetNamespace(), deploymentName)
		if err == nil {
			beforeDelete = obj.(*unstructured.Unstructured)
		}
		return false, nil, nil
	})

	var out bytes.Buffer
	if err := lifecycle(context.Background(), client, "ns1", &out); err != nil {
		t.Fatal(err)
	}
	if beforeDelete == nil {
		t.Fatal("deployment was never deleted")
	}
	replicas, _, _ := unstructured.NestedInt64(beforeDelete.Object, "spec", "replicas")
	containers, _, _ := unstructured.NestedSlice(beforeDelete.Object, "spec", "template", "spec", "containers")
	if replicas != 1 || len(containers) != 1 || containers[0].(map[string]any)["image"] != "nginx:1.28" {
		t.Errorf("deployment before delete: replicas=%d containers=%v", replicas, containers)
	}
	_, err := client.Resource(deploymentsResource).Namespace("ns1").Get(context.Background(), deploymentName, metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("after lifecycle Get error = %v, want NotFound", err)
	}
	if !strings.Contains(out.String(), "demo-deployment (1 replicas)") {
		t.Errorf("output lacks the listed deployment:\n%s", out.String())
	}
}

func TestLifecycleRejectsDeploymentWithoutContainers(t *testing.T) {
	client := newClient()
	client.PrependReactor("get", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		d := newDeployment()
		d.SetNamespace("ns1")
		unstructured.RemoveNestedField(d.Object, "spec", "template", "spec", "containers")
		return true, d, nil
	})
	err := lifecycle(context.Background(), client, "ns1", &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "deployment has no containers") {
		t.Fatalf("error = %v, want one about missing containers", err)
	}
}
