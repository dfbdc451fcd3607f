package main

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/kubernetes/fake"
	clienttesting "github.com/kubeclient/client-go/testing"
)

func node(name string, cordoned bool) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.NodeSpec{Unschedulable: cordoned}}
}

func TestDrainNode(t *testing.T) {
	tests := []struct {
		name        string
		objects     []runtime.Object
		wantEvicted []string
		wantLeft    []string
		wantErr     bool
	}{{
		name:        "cordoned node loses its pods",
		objects:     []runtime.Object{node("a", true), newPod("default", "p1", "a"), newPod("kube", "p2", "a"), newPod("default", "p3", "b")},
		wantEvicted: []string{"default/p1", "kube/p2"},
		wantLeft:    []string{"default/p3"},
	}, {
		name:     "schedulable node is left alone",
		objects:  []runtime.Object{node("a", false), newPod("default", "p1", "a")},
		wantLeft: []string{"default/p1"},
	}, {
		name:     "missing node is an error",
		objects:  []runtime.Object{newPod("default", "p1", "a")},
		wantErr:  true,
		wantLeft: []string{"default/p1"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			cs := fake.NewClientset(tc.objects...)
			evicted, err := drainNode(ctx, cs, "a")
			if (err != nil) != tc.wantErr {
				t.Fatalf("drainNode error = %v, want error %v", err, tc.wantErr)
			}
			sort.Strings(evicted)
			if !reflect.DeepEqual(evicted, tc.wantEvicted) {
				t.Errorf("evicted %v, want %v", evicted, tc.wantEvicted)
			}
			pods, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, p := range pods.Items {
				left = append(left, p.Namespace+"/"+p.Name)
			}
			sort.Strings(left)
			if !reflect.DeepEqual(left, tc.wantLeft) {
				t.Errorf("pods left %v, want %v", left, tc.wantLeft)
			}
		})
	}
}

// TestDrainNodeEvictionRefused shows a reactor injecting an API error: the
// eviction is refused as a PodDisruptionBudget would, and the pod stays.
func TestDrainNodeEvictionRefused(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset(node("a", true), newPod("default", "p1", "a"))
	refusal := apierrors.NewTooManyRequests("disruption budget exhausted", 10)
	cs.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "eviction" {
			return false, nil, nil
		}
		return true, nil, refusal
	})
	evicted, err := drainNode(ctx, cs, "a")
	if !errors.Is(err, refusal) && !apierrors.IsTooManyRequests(err) {
		t.Fatalf("drainNode error = %v, want the refusal", err)
	}
	if len(evicted) != 0 {
		t.Errorf("evicted %v despite the refusal", evicted)
	}
	if _, err := cs.CoreV1().Pods("default").Get(ctx, "p1", metav1.GetOptions{}); err != nil {
		t.Errorf("pod gone after a refused eviction: %v", err)
	}
	var sawEviction bool
	for _, a := range cs.Actions() {
		if a.Matches("create", "pods") && a.GetSubresource() == "eviction" {
			sawEviction = true
		}
	}
	if !sawEviction {
		t.Error("no eviction action recorded")
	}
}
