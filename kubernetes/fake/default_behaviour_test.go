package fake

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// TestDefaultClientsetsStoreObjectsAsGiven checks, through the generated
// clients of NewSimpleClientset and NewClientset, the observable behaviour
// client-go's fake clientsets have: what Create returns is what was
// passed, updates never conflict, UpdateStatus replaces the whole object,
// finalizers do not delay deletion and a watch from a list's
// resourceVersion starts empty.
func TestDefaultClientsetsStoreObjectsAsGiven(t *testing.T) {
	constructors := map[string]func(...runtime.Object) *Clientset{
		"NewSimpleClientset": NewSimpleClientset,
		"NewClientset":       NewClientset,
	}
	tests := []struct {
		name string
		run  func(t *testing.T, ctx context.Context, cs *Clientset)
	}{{
		name: "create returns the object as given",
		run: func(t *testing.T, ctx context.Context, cs *Clientset) {
			got, err := cs.CoreV1().Pods("default").Create(ctx, pod("p", "n"), metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.UID != "" || got.ResourceVersion != "" || got.Generation != 0 || !got.CreationTimestamp.IsZero() || got.Name != "p" {
				t.Errorf("Create filled in server metadata: %+v", got.ObjectMeta)
			}
		},
	}, {
		name: "generateName is left alone",
		run: func(t *testing.T, ctx context.Context, cs *Clientset) {
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "web-"}}
			got, err := cs.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{})
			if err != nil || got.Name != "" {
				t.Errorf("Create with generateName = %q, %v; want an empty name", got.GetName(), err)
			}
		},
	}, {
		name: "update with a made-up resourceVersion succeeds",
		run: func(t *testing.T, ctx context.Context, cs *Clientset) {
			pods := cs.CoreV1().Pods("default")
			if _, err := pods.Create(ctx, pod("p", "n"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			p := pod("p", "m")
			p.ResourceVersion = "test_resourceVersion"
			got, err := pods.Update(ctx, p, metav1.UpdateOptions{})
			if err != nil || got.ResourceVersion != "test_resourceVersion" || got.Spec.NodeName != "m" {
				t.Errorf("Update = %+v, %v; want it stored as given", got, err)
			}
		},
	}, {
		name: "UpdateStatus replaces the whole object",
		run: func(t *testing.T, ctx context.Context, cs *Clientset) {
			pods := cs.CoreV1().Pods("default")
			if _, err := pods.Create(ctx, pod("p", "n"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			p := pod("p", "other-node")
			p.Status.Phase = corev1.PodRunning
			if _, err := pods.UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			got, err := pods.Get(ctx, "p", metav1.GetOptions{})
			if err != nil || got.Spec.NodeName != "other-node" || got.Status.Phase != corev1.PodRunning {
				t.Errorf("after UpdateStatus: %+v, %v", got, err)
			}
		},
	}, {
		name: "finalizers do not delay deletion",
		run: func(t *testing.T, ctx context.Context, cs *Clientset) {
			pods := cs.CoreV1().Pods("default")
			p := pod("p", "n")
			p.Finalizers = []string{"example.com/hold"}
			if _, err := pods.Create(ctx, p, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := pods.Delete(ctx, "p", metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := pods.Get(ctx, "p", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("Get after Delete: %v, want NotFound", err)
			}
		},
	}, {
		name: "watch from the list resourceVersion starts empty",
		run: func(t *testing.T, ctx context.Context, cs *Clientset) {
			pods := cs.CoreV1().Pods("default")
			if _, err := pods.Create(ctx, pod("old", "n"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			list, err := pods.List(ctx, metav1.ListOptions{})
			if err != nil || list.ResourceVersion != "2" {
				t.Fatalf("List resourceVersion = %q, %v; want 2", list.ResourceVersion, err)
			}
			w, err := pods.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			if _, err := pods.Create(ctx, pod("new", "n"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if ev := nextEvent(t, w); ev.Type != watch.Added || ev.Object.(*corev1.Pod).Name != "new" {
				t.Errorf("first event %s %s, want ADDED new", ev.Type, ev.Object.(*corev1.Pod).Name)
			}
		},
	}}
	for _, tc := range tests {
		for name, newClientset := range constructors {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				tc.run(t, ctx, newClientset())
			})
		}
	}
}
