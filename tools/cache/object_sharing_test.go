package cache

import (
	"reflect"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
)

// withSharer runs the test with objects shared by s.
func withSharer(t *testing.T, dedup string) {
	saved := cacheSharer
	cacheSharer = newCacheSharer(dedup)
	t.Cleanup(func() { cacheSharer = saved })
}

func cachedPod(t *testing.T, rig *podInformerRig, i int) *v1.Pod {
	t.Helper()
	want := realisticPod(t, i, 1)
	obj, exists, err := rig.inf.GetStore().GetByKey(want.Namespace + "/" + want.Name)
	if err != nil || !exists {
		t.Fatalf("pod %d not cached: %v", i, err)
	}
	return obj.(*v1.Pod)
}

// TestInformerSharesCachedObjects lists realistic pods: the cached pods
// are DeepEqual to the decoded ones and, unless dedup is off, share their
// equal FieldsV1 sets and resource lists.
func TestInformerSharesCachedObjects(t *testing.T) {
	for _, tt := range []struct {
		env   string
		dedup bool
	}{{"", true}, {"true", true}, {"false", false}, {"no", true}} {
		t.Run(cacheDedupEnv+"="+tt.env, func(t *testing.T) {
			withSharer(t, tt.env)
			rig := startPodInformer(t, realisticPodList(t, 3, 1))
			defer rig.shutdown()
			a, b := cachedPod(t, rig, 0), cachedPod(t, rig, 1)
			for i, p := range []*v1.Pod{a, b} {
				if want := realisticPod(t, i, 1); !reflect.DeepEqual(want, p) {
					t.Errorf("cached pod %d differs from the decoded one", i)
				}
			}
			rawA, rawB := a.ManagedFields[0].FieldsV1.Raw, b.ManagedFields[0].FieldsV1.Raw
			if shared := &rawA[0] == &rawB[0]; shared != tt.dedup {
				t.Errorf("FieldsV1 shared: %v, want %v", shared, tt.dedup)
			}
			limitsA, limitsB := a.Spec.Containers[0].Resources.Limits, b.Spec.Containers[0].Resources.Limits
			if shared := reflect.ValueOf(limitsA).Pointer() == reflect.ValueOf(limitsB).Pointer(); shared != tt.dedup {
				t.Errorf("resource limits shared: %v, want %v", shared, tt.dedup)
			}
		})
	}
}

// TestMutationDetectorCatchesWritesIntoSharedObjects writes into what a
// cached pod shares with the others: the cache mutation detector reports
// the written pod and the pods sharing with it.
func TestMutationDetectorCatchesWritesIntoSharedObjects(t *testing.T) {
	tests := []struct {
		name  string
		write func(p *v1.Pod)
	}{
		{"FieldsV1 bytes", func(p *v1.Pod) { p.ManagedFields[0].FieldsV1.Raw[1] = 'X' }},
		{"resource limits", func(p *v1.Pod) { p.Spec.Containers[0].Resources.Limits[v1.ResourceCPU] = resource.MustParse("2") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withSharer(t, "true")
			savedEnabled := mutationDetectionEnabled
			mutationDetectionEnabled = true
			t.Cleanup(func() { mutationDetectionEnabled = savedEnabled })

			var reports []string
			var detector *cacheMutationDetector
			rig := startPodInformer(t, realisticPodList(t, 3, 1), func(s *sharedIndexInformer) {
				s.cacheMutationDetector = NewCacheMutationDetector("pods")
				detector = s.cacheMutationDetector.(*cacheMutationDetector)
				detector.failureFunc = func(msg string) { reports = append(reports, msg) }
			})
			// Stop the informer so that only this goroutine reads the
			// objects; the cache keeps them.
			rig.shutdown()
			tt.write(cachedPod(t, rig, 0))
			detector.CompareObjects()
			if len(reports) != 3 {
				t.Fatalf("detector reported %d modified objects, want the 3 pods sharing the write", len(reports))
			}
			if !strings.Contains(reports[0], "cache pods modified object") {
				t.Errorf("report = %.80q", reports[0])
			}
		})
	}
}

// TestSharingKeepsDecodedObjectsEqual shares realistic pods as each
// decoder produces them (JSON, protobuf, unstructured, metadata only):
// every one stays DeepEqual to a copy decoded apart, and two pods decoded
// apart share their controller's managed-fields set.
func TestSharingKeepsDecodedObjectsEqual(t *testing.T) {
	decoders := []struct {
		name   string
		decode func(t *testing.T, i int) kruntime.Object
		fields func(obj kruntime.Object) interface{}
	}{
		{"json", func(t *testing.T, i int) kruntime.Object { return realisticPod(t, i, 1) }, typedFields},
		{"protobuf", func(t *testing.T, i int) kruntime.Object {
			data, err := realisticPod(t, i, 1).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			pod := &v1.Pod{}
			if err := pod.Unmarshal(data); err != nil {
				t.Fatal(err)
			}
			return pod
		}, typedFields},
		{"unstructured", func(t *testing.T, i int) kruntime.Object {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(realisticPodBytes(i, 1)); err != nil {
				t.Fatal(err)
			}
			return u
		}, func(obj kruntime.Object) interface{} {
			u := obj.(*unstructured.Unstructured)
			entry := u.Object["metadata"].(map[string]interface{})["managedFields"].([]interface{})[0]
			return entry.(map[string]interface{})["fieldsV1"]
		}},
		{"metadata", func(t *testing.T, i int) kruntime.Object {
			return &metav1.PartialObjectMetadata{ObjectMeta: realisticPod(t, i, 1).ObjectMeta}
		}, func(obj kruntime.Object) interface{} {
			return obj.(*metav1.PartialObjectMetadata).ManagedFields[0].FieldsV1.Raw
		}},
	}
	for _, d := range decoders {
		t.Run(d.name, func(t *testing.T) {
			withSharer(t, "")
			a, b := d.decode(t, 0), d.decode(t, 1)
			shareCached(a)
			shareCached(b)
			for i, obj := range []kruntime.Object{a, b} {
				if want := d.decode(t, i); !reflect.DeepEqual(want, obj) {
					t.Errorf("shared object %d differs from one decoded apart", i)
				}
			}
			if reflect.ValueOf(d.fields(a)).Pointer() != reflect.ValueOf(d.fields(b)).Pointer() {
				t.Error("the controller's managed fields are not shared")
			}
		})
	}
}

func typedFields(obj kruntime.Object) interface{} {
	return obj.(*v1.Pod).ManagedFields[0].FieldsV1.Raw
}
