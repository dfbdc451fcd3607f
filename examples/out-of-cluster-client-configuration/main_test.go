package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/kubernetes/fake"
	clienttesting "github.com/kubeclient/client-go/testing"
)

func pod(ns, name string, phase corev1.PodPhase) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Status: corev1.PodStatus{Phase: phase}}
}

func TestReport(t *testing.T) {
	objs := []runtime.Object{pod("default", "web", corev1.PodRunning), pod("default", "db", corev1.PodPending), pod("other", "x", corev1.PodRunning)}
	tests := []struct {
		name, namespace, pod, want string
	}{
		{"count only", "default", "", "2 pods in namespace default\n"},
		{"existing pod", "default", "db", "2 pods in namespace default\npod default/db is Pending\n"},
		{"missing pod", "default", "nope", "2 pods in namespace default\npod default/nope not found\n"},
		{"empty namespace", "empty", "", "0 pods in namespace empty\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := report(context.Background(), fake.NewClientset(objs...), tt.namespace, tt.pod, &out); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("output = %q, want %q", out.String(), tt.want)
			}
		})
	}
}

func TestReportListError(t *testing.T) {
	client := fake.NewClientset()
	client.PrependReactor("list", "pods", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("boom")
	})
	err := report(context.Background(), client, "default", "", &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "listing pods in default: boom") {
		t.Fatalf("error = %v", err)
	}
}
