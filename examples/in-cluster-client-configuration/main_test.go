package main

import (
	"bytes"
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes/fake"
	"github.com/kubeclient/client-go/rest"
)

func TestCountPods(t *testing.T) {
	client := fake.NewClientset(
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p1"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "b", Name: "p2"}, Status: corev1.PodStatus{Phase: corev1.PodSucceeded}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "b", Name: "p3"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
	)
	var out bytes.Buffer
	if err := countPods(context.Background(), client, &out); err != nil {
		t.Fatal(err)
	}
	if want := "3 pods in the cluster, 2 running\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

func TestInClusterConfigOutsideACluster(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	if _, err := rest.InClusterConfig(); !errors.Is(err, rest.ErrNotInCluster) {
		t.Fatalf("InClusterConfig error = %v, want ErrNotInCluster", err)
	}
}
