package intern

import (
	"reflect"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// sharedPods returns n pods holding the same labels and annotations maps
// and the same containers, as pods decoded with sharing (or built by a
// caller from one template) do.
func sharedPods(t *testing.T, n int) []*corev1.Pod {
	template := pod(t, 0)
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		p := pod(t, i+1)
		p.Labels, p.Annotations = template.Labels, template.Annotations
		p.Spec.Containers = template.Spec.Containers
		pods[i] = p
	}
	return pods
}

// sharedUnstructured returns n unstructured pods holding the same metadata
// labels map and containers list.
func sharedUnstructured(t *testing.T, n int) []*unstructured.Unstructured {
	template := unstructuredPod(t, 0)
	meta := template.Object["metadata"].(map[string]interface{})
	spec := template.Object["spec"].(map[string]interface{})
	objs := make([]*unstructured.Unstructured, n)
	for i := range objs {
		u := unstructuredPod(t, i+1)
		u.Object["metadata"].(map[string]interface{})["labels"] = meta["labels"]
		u.Object["spec"].(map[string]interface{})["containers"] = spec["containers"]
		objs[i] = u
	}
	return objs
}

// readAll reads every map and slice reachable from v, as a controller
// reading its cache does.
func readAll(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			readAll(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				readAll(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			readAll(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			readAll(it.Value())
		}
	case reflect.String:
		_ = len(v.String())
	}
}

// TestCopyNeverWritesItsArgument copies objects whose maps and slices
// other objects hold while readers read those objects: under -race, any
// write into them is reported, and no object changes.
func TestCopyNeverWritesItsArgument(t *testing.T) {
	deployment := &appsv1.Deployment{}
	deployment.Spec.Template.Labels = map[string]string{"app": "web", "tier": "front"}
	objects := map[string]func(t *testing.T) []runtime.Object{
		"pods": func(t *testing.T) []runtime.Object {
			var objs []runtime.Object
			for _, p := range sharedPods(t, 20) {
				objs = append(objs, p)
			}
			return objs
		},
		"unstructured": func(t *testing.T) []runtime.Object {
			var objs []runtime.Object
			for _, u := range sharedUnstructured(t, 20) {
				objs = append(objs, u)
			}
			return objs
		},
		"deployments (reflective plans)": func(t *testing.T) []runtime.Object {
			var objs []runtime.Object
			for i := 0; i < 20; i++ {
				d := deployment.DeepCopy()
				d.Spec.Template.Labels = deployment.Spec.Template.Labels
				objs = append(objs, d)
			}
			return objs
		},
	}
	for name, build := range objects {
		for _, dedup := range []bool{true, false} {
			t.Run(name, func(t *testing.T) {
				s := NewSharer(dedup)
				objs := build(t)
				snapshots := []runtime.Object{}
				for _, o := range objs {
					snapshots = append(snapshots, o.DeepCopyObject())
				}
				stop := make(chan struct{})
				var readers sync.WaitGroup
				for r := 0; r < 2; r++ {
					readers.Add(1)
					go func() {
						defer readers.Done()
						for {
							select {
							case <-stop:
								return
							default:
							}
							for _, o := range objs {
								readAll(reflect.ValueOf(o))
							}
						}
					}()
				}
				copies := []any{}
				for round := 0; round < 5; round++ {
					for _, o := range objs {
						copies = append(copies, s.Copy(o))
					}
				}
				close(stop)
				readers.Wait()
				for i, o := range objs {
					if !reflect.DeepEqual(o, snapshots[i]) {
						t.Fatalf("object %d changed", i)
					}
				}
				for i, c := range copies {
					if !reflect.DeepEqual(c, snapshots[i%len(objs)]) {
						t.Fatalf("copy %d differs from its object", i)
					}
					if c == any(objs[i%len(objs)]) {
						t.Fatalf("copy %d is its object", i)
					}
				}
			})
		}
	}
}

// TestCopyLeavesSecretsAlone: Secrets are published as they are, and no
// table keeps their values; the last applied configuration of other
// objects is not interned either.
func TestCopyLeavesSecretsAlone(t *testing.T) {
	s := NewSharer(true)
	secret := &corev1.Secret{StringData: map[string]string{"password": "hunter2"}}
	secret.Annotations = map[string]string{LastAppliedAnnotation: `{"stringData":{"password":"x"}}`}
	if got := s.Copy(secret); got != any(secret) {
		t.Error("a Secret was copied")
	}
	u := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": "v1", "kind": "Secret",
		"stringData": map[string]interface{}{"password": "y"}}}
	if got := s.Copy(u); got != any(u) {
		t.Error("an unstructured Secret was copied")
	}
	// The annotation on a ConfigMap copied twice keeps distinct strings:
	// the table did not keep the first.
	applied := `{"data":{"k":"v"}}`
	c1 := &corev1.ConfigMap{}
	c1.Annotations = map[string]string{LastAppliedAnnotation: string([]byte(applied))}
	c2 := c1.DeepCopy()
	c2.Annotations[LastAppliedAnnotation] = string([]byte(applied))
	a := s.Copy(c1).(*corev1.ConfigMap).Annotations[LastAppliedAnnotation]
	b := s.Copy(c2).(*corev1.ConfigMap).Annotations[LastAppliedAnnotation]
	if a != applied || b != applied {
		t.Fatal("annotation changed")
	}
	if storage(a) == storage(b) {
		t.Error("the last applied configuration was interned")
	}
}
