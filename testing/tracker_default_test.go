package testing

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

// defaultTrackers returns the trackers the fake clients use by default,
// by name.
func defaultTrackers(t *testing.T) map[string]ObjectTracker {
	t.Helper()
	s, d := testScheme(t)
	return map[string]ObjectTracker{
		"NewObjectTracker":             NewObjectTracker(s, d),
		"NewFieldManagedObjectTracker": NewFieldManagedObjectTracker(s, d, managedfields.NewDeducedTypeConverter()),
	}
}

// withoutServerFields returns a copy of obj without the fields a tracker
// may legitimately add: type metadata and managed fields.
func withoutServerFields(obj runtime.Object) runtime.Object {
	obj = obj.DeepCopyObject()
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj
}

// mustEqualContent fails unless got and want have the same content apart
// from type metadata and managed fields.
func mustEqualContent(t *testing.T, what string, got, want runtime.Object) {
	t.Helper()
	if g, w := withoutServerFields(got), withoutServerFields(want); !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, g, w)
	}
}

// TestDefaultTrackersStoreObjectsAsGiven checks the default trackers
// against the observable behaviour of client-go's: content is stored and
// returned unchanged and writes succeed whatever resourceVersion,
// finalizers, dry-run or subresource they carry.
func TestDefaultTrackersStoreObjectsAsGiven(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, tr ObjectTracker, react ReactionFunc)
	}{{
		name: "create returns and stores the object unchanged",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			p := pod("ns", "p")
			_, got, err := react(NewCreateAction(podsGVR, "ns", p))
			must(t, err)
			mustEqualContent(t, "create result", got, p)
			mustEqualContent(t, "stored", mustGet(t, tr, podsGVR, "ns", "p"), p)
			m, _ := meta.Accessor(got)
			if ts := m.GetCreationTimestamp(); m.GetUID() != "" || m.GetResourceVersion() != "" || m.GetGeneration() != 0 || !ts.IsZero() {
				t.Errorf("create filled in server metadata: %+v", m)
			}
		},
	}, {
		name: "generateName is not resolved",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", GenerateName: "web-"}}
			_, got, err := react(NewCreateAction(podsGVR, "ns", p))
			must(t, err)
			if m, _ := meta.Accessor(got); m.GetName() != "" || m.GetGenerateName() != "web-" {
				t.Errorf("created name %q generateName %q, want \"\" and web-", m.GetName(), m.GetGenerateName())
			}
			if _, _, err := react(NewCreateAction(podsGVR, "ns", p)); !apierrors.IsAlreadyExists(err) {
				t.Errorf("second create with the same generateName: %v, want AlreadyExists", err)
			}
		},
	}, {
		name: "update with any resourceVersion succeeds and is stored as given",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			must(t, tr.Add(configMap("ns", "c", map[string]string{"a": "1"})))
			for _, rv := range []string{"test_resourceVersion", "1", ""} {
				cm := configMap("ns", "c", map[string]string{"rv": rv})
				cm.ResourceVersion = rv
				_, got, err := react(NewUpdateAction(configMapsGVR, "ns", cm))
				if err != nil {
					t.Fatalf("update with resourceVersion %q: %v", rv, err)
				}
				mustEqualContent(t, "update result", got, cm)
				mustEqualContent(t, "stored", mustGet(t, tr, configMapsGVR, "ns", "c"), cm)
			}
		},
	}, {
		name: "update of a missing object is NotFound",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			if _, _, err := react(NewUpdateAction(configMapsGVR, "ns", configMap("ns", "nope", nil))); !apierrors.IsNotFound(err) {
				t.Errorf("error = %v, want NotFound", err)
			}
		},
	}, {
		name: "generation does not follow spec changes",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			must(t, tr.Add(deployment("ns", "d", 1)))
			_, got, err := react(NewUpdateAction(deploymentsGVR, "ns", deployment("ns", "d", 5)))
			must(t, err)
			if g := got.(*appsv1.Deployment).Generation; g != 0 {
				t.Errorf("generation = %d, want 0", g)
			}
		},
	}, {
		name: "status update replaces the whole object",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			must(t, tr.Add(deployment("ns", "d", 1)))
			d := deployment("ns", "d", 7)
			d.Status.Replicas = 3
			_, got, err := react(NewUpdateSubresourceAction(deploymentsGVR, "status", "ns", d))
			must(t, err)
			mustEqualContent(t, "status update result", got, d)
			mustEqualContent(t, "stored", mustGet(t, tr, deploymentsGVR, "ns", "d"), d)
		},
	}, {
		name: "delete ignores finalizers and preconditions",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			p := pod("ns", "p")
			p.Finalizers = []string{"example.com/hold"}
			p.UID = "u1"
			must(t, tr.Add(p))
			opts := metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: ptr.To[types.UID]("other")}}
			_, _, err := react(NewDeleteActionWithOptions(podsGVR, "ns", "p", opts))
			must(t, err)
			if _, err := tr.Get(podsGVR, "ns", "p"); !apierrors.IsNotFound(err) {
				t.Errorf("get after delete: %v, want NotFound", err)
			}
		},
	}, {
		name: "dry-run writes are stored",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			_, _, err := react(NewCreateActionWithOptions(podsGVR, "ns", pod("ns", "p"), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}))
			must(t, err)
			mustGet(t, tr, podsGVR, "ns", "p")
		},
	}, {
		name: "list resourceVersion counts the writes to the resource",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			listRV := func() string {
				t.Helper()
				list, err := tr.List(podsGVR, podKind, "")
				must(t, err)
				m, _ := meta.ListAccessor(list)
				return m.GetResourceVersion()
			}
			if rv := listRV(); rv != "1" {
				t.Errorf("empty list resourceVersion = %q, want 1", rv)
			}
			must(t, tr.Add(pod("ns", "a")))
			must(t, tr.Create(podsGVR, pod("ns", "b"), "ns"))
			must(t, tr.Create(configMapsGVR, configMap("ns", "c", nil), "ns"))
			must(t, tr.Update(podsGVR, pod("ns", "b"), "ns"))
			must(t, tr.Delete(podsGVR, "ns", "a"))
			if rv := listRV(); rv != "4" {
				t.Errorf("list resourceVersion after 3 pod writes and a delete = %q, want 4", rv)
			}
		},
	}, {
		name: "list and watch ignore selectors",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			a := pod("ns", "a")
			a.Labels = map[string]string{"app": "a"}
			must(t, tr.Add(a))
			must(t, tr.Add(pod("ns", "b")))
			opts := metav1.ListOptions{LabelSelector: "app=a", FieldSelector: "metadata.name=a", Limit: 1}
			list, err := tr.List(podsGVR, podKind, "ns", opts)
			must(t, err)
			if n := len(list.(*corev1.PodList).Items); n != 2 {
				t.Errorf("list with selectors returned %d pods, want 2", n)
			}
			w, err := tr.Watch(podsGVR, "ns", opts)
			must(t, err)
			defer w.Stop()
			want := []eventSummary{{watch.Added, "a"}, {watch.Added, "b"}}
			if got := nextEvents(t, w, 2); !reflect.DeepEqual(got, want) {
				t.Errorf("watch events %v, want %v", got, want)
			}
		},
	}, {
		name: "watch from a list resourceVersion sends only later writes",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			must(t, tr.Add(pod("ns", "old")))
			list, err := tr.List(podsGVR, podKind, "ns")
			must(t, err)
			w, err := tr.Watch(podsGVR, "ns", metav1.ListOptions{ResourceVersion: list.(*corev1.PodList).ResourceVersion})
			must(t, err)
			defer w.Stop()
			must(t, tr.Create(podsGVR, pod("ns", "new"), "ns"))
			must(t, tr.Delete(podsGVR, "ns", "old"))
			want := []eventSummary{{watch.Added, "new"}, {watch.Deleted, "old"}}
			if got := nextEvents(t, w, 2); !reflect.DeepEqual(got, want) {
				t.Errorf("watch events %v, want %v", got, want)
			}
		},
	}, {
		name: "watch from a resourceVersion sends objects written after it as ADDED",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			must(t, tr.Add(pod("ns", "a")))                   // count 2
			must(t, tr.Add(pod("ns", "b")))                   // count 3
			must(t, tr.Update(podsGVR, pod("ns", "a"), "ns")) // count 4
			w, err := tr.Watch(podsGVR, "ns", metav1.ListOptions{ResourceVersion: "3"})
			must(t, err)
			defer w.Stop()
			want := []eventSummary{{watch.Added, "a"}}
			if got := nextEvents(t, w, 1); !reflect.DeepEqual(got, want) {
				t.Errorf("watch events %v, want %v", got, want)
			}
			if _, err := tr.Watch(podsGVR, "ns", metav1.ListOptions{ResourceVersion: "test_resourceVersion"}); err == nil {
				t.Error("watch from a non-numeric resourceVersion: no error")
			}
		},
	}, {
		name: "watch without options sends only future changes",
		run: func(t *testing.T, tr ObjectTracker, react ReactionFunc) {
			must(t, tr.Add(pod("ns", "old")))
			w, err := tr.Watch(podsGVR, "")
			must(t, err)
			defer w.Stop()
			must(t, tr.Create(podsGVR, pod("other", "new"), "other"))
			want := []eventSummary{{watch.Added, "new"}}
			if got := nextEvents(t, w, 1); !reflect.DeepEqual(got, want) {
				t.Errorf("watch events %v, want %v", got, want)
			}
		},
	}}
	for _, tc := range tests {
		for name, tr := range defaultTrackers(t) {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				tc.run(t, tr, ObjectReaction(tr))
			})
		}
	}
}

// TestDefaultApplyOfMissingObject checks that Apply on the plain default
// tracker, like client-go's, does not create a missing object, while the
// field-managed one does.
func TestDefaultApplyOfMissingObject(t *testing.T) {
	cfg := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns"},"data":{"a":"1"}}`)
	for name, tr := range defaultTrackers(t) {
		t.Run(name, func(t *testing.T) {
			action := NewPatchActionWithOptions(configMapsGVR, "ns", "c", types.ApplyPatchType, cfg, metav1.PatchOptions{FieldManager: "m"})
			_, _, err := ObjectReaction(tr)(action)
			if fieldManaged := name == "NewFieldManagedObjectTracker"; fieldManaged {
				must(t, err)
				if got := mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap); got.Data["a"] != "1" || got.ResourceVersion != "" {
					t.Errorf("applied object %+v", got)
				}
			} else if !apierrors.IsNotFound(err) {
				t.Errorf("apply of a missing object: %v, want NotFound", err)
			}
		})
	}
}
