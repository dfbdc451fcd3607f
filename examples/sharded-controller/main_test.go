package main

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes/fake"
)

func TestReconcileStamps(t *testing.T) {
	tests := []struct {
		name      string
		stamp     string // already on the ConfigMap
		wantStamp string
	}{
		{"unstamped", "", "a"},
		{"stamped by another replica", "b", "a"},
		{"stamped by this one", "a", "a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "x"}}
			if tc.stamp != "" {
				cm.Annotations = map[string]string{stampAnnotation: tc.stamp}
			}
			client := fake.NewServerLikeClientset(cm)
			cms := client.CoreV1().ConfigMaps("ns")
			stored, err := cms.Get(context.Background(), "x", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := reconcile(context.Background(), cms, "a", "ns/x", stored); err != nil {
				t.Fatal(err)
			}
			got, err := cms.Get(context.Background(), "x", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Annotations[stampAnnotation] != tc.wantStamp {
				t.Errorf("stamp %q, want %q", got.Annotations[stampAnnotation], tc.wantStamp)
			}
			if stored.Annotations[stampAnnotation] != tc.stamp {
				t.Errorf("reconcile wrote into the cached object")
			}
		})
	}
	if err := reconcile(context.Background(), fake.NewClientset().CoreV1().ConfigMaps("ns"), "a", "ns/gone", nil); err != nil {
		t.Errorf("a gone object: %v", err)
	}
}

func TestNewController(t *testing.T) {
	if _, err := newController(fake.NewClientset(), "ns", "a"); err != nil {
		t.Fatal(err)
	}
}
