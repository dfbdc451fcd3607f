package cache

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// withSharing runs the test with cache sharing on or off.
func withSharing(t *testing.T, on bool) {
	t.Cleanup(fastpath.CacheDedup.Set(on))
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
// are DeepEqual to the decoded ones and, unless sharing is off, share their
// equal FieldsV1 sets and resource lists.
func TestInformerSharesCachedObjects(t *testing.T) {
	for _, tt := range []struct {
		dedup bool
	}{{true}, {false}} {
		t.Run(fmt.Sprintf("dedup=%v", tt.dedup), func(t *testing.T) {
			withSharing(t, tt.dedup)
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
			withSharing(t, true)
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
			withSharing(t, true)
			a, b := d.decode(t, 0), d.decode(t, 1)
			a, b = cacheSharer.Copy(a).(kruntime.Object), cacheSharer.Copy(b).(kruntime.Object)
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

// labeledPods decodes n realistic pods, each with a label value of its own
// built at run time, so that only sharing can put it in the string table.
func labeledPods(t *testing.T, n int) []*v1.Pod {
	pods := make([]*v1.Pod, n)
	for i := range pods {
		pods[i] = realisticPod(t, i, 1)
		for _, key := range arrivalLabels {
			pods[i].Labels[key] = t.Name() + "/" + key + "/" + strconv.Itoa(i)
		}
	}
	return pods
}

// arrivalLabels are the labels labeledPods adds.
var arrivalLabels = []string{"arrival-a", "arrival-b", "arrival-c"}

// fieldsShared tells whether two pods share their equal FieldsV1 sets.
func fieldsShared(a, b *v1.Pod) bool {
	rawA, rawB := a.ManagedFields[0].FieldsV1.Raw, b.ManagedFields[0].FieldsV1.Raw
	return &rawA[0] == &rawB[0]
}

// TestInformersPublishSharedCopies runs both kinds of informer over a list
// of three pods in two pages, then a watch event, with and without a
// transform that writes into the first pod's FieldsV1 set. The pods the
// ListerWatcher returns are not written (they are its own) and not
// published: the cache holds copies equal to them (transformed), which
// share their FieldsV1 sets. The list and watch requests are marked for
// decoding with sharing (wirecodec.WithCacheDecoding) only without a
// transform.
func TestInformersPublishSharedCopies(t *testing.T) {
	writeFirst := func(obj interface{}) (interface{}, error) {
		if p, ok := obj.(*v1.Pod); ok && p.Name == realisticPod(t, 0, 1).Name {
			p.ManagedFields[0].FieldsV1.Raw[1] = 'X'
		}
		return obj, nil
	}
	informers := map[string]func(lw ListerWatcher, transform TransformFunc) (Store, func(ctx context.Context)){
		"shared informer": func(lw ListerWatcher, transform TransformFunc) (Store, func(ctx context.Context)) {
			inf := NewSharedIndexInformer(lw, &v1.Pod{}, 0, Indexers{})
			if err := inf.SetTransform(transform); err != nil {
				t.Fatal(err)
			}
			return inf.GetStore(), inf.RunWithContext
		},
		"informer with options": func(lw ListerWatcher, transform TransformFunc) (Store, func(ctx context.Context)) {
			store, ctrl := NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: &v1.Pod{}, Transform: transform})
			return store, ctrl.RunWithContext
		},
	}
	for name, newInformer := range informers {
		for _, transform := range []TransformFunc{nil, writeFirst} {
			t.Run(fmt.Sprintf("%s/transform=%v", name, transform != nil), inBubble(func(t *testing.T) {
				withSharing(t, true)
				pods := labeledPods(t, 4)
				// The listed pods hold one labels map, as pods decoded with
				// sharing do: publishing must not write into it.
				for _, p := range pods[1:] {
					p.Labels = pods[0].Labels
				}
				snapshots := make([]*v1.Pod, len(pods))
				for i, p := range pods {
					snapshots[i] = p.DeepCopy()
				}
				var listMarked, watchMarked atomic.Bool
				events := watch.NewFake()
				lw := &ListWatch{
					ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (kruntime.Object, error) {
						listMarked.Store(wirecodec.CacheDecoding(ctx) != nil)
						if opts.Continue == "" {
							return podList("5", "next", pods[0], pods[1]), nil
						}
						return podList("5", "", pods[2]), nil
					},
					WatchFuncWithContext: func(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
						watchMarked.Store(wirecodec.CacheDecoding(ctx) != nil)
						return events, nil
					},
				}
				store, run := newInformer(ToListWatcherWithWatchListSemantics(lw, listThenWatch{}), transform)
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); run(ctx) }()
				settled(t, "the sync", func() bool { return len(store.ListKeys()) == 3 })
				events.Add(pods[3])
				settled(t, "the watch event", func() bool { return len(store.ListKeys()) == 4 })
				cancel()
				<-done
				if want := transform == nil; listMarked.Load() != want || watchMarked.Load() != want {
					t.Errorf("requests marked for decoding with sharing: list %v, watch %v, want %v", listMarked.Load(), watchMarked.Load(), want)
				}
				want := make([]*v1.Pod, len(snapshots))
				for i, p := range snapshots {
					want[i] = p.DeepCopy()
				}
				if transform != nil {
					_, _ = writeFirst(want[0])
				}
				var cached []*v1.Pod
				for i, w := range want {
					got, _, _ := store.Get(w)
					if !reflect.DeepEqual(got, w) {
						t.Fatalf("cached pod %s differs from the listed (and transformed) one", w.Name)
					}
					if got == any(pods[i]) {
						t.Errorf("pod %s: the ListerWatcher's object was published, not a copy", w.Name)
					}
					cached = append(cached, got.(*v1.Pod))
				}
				if transform == nil {
					// The transform wrote into the listed pod (its input),
					// as client-go's would; without one nothing may.
					for i, p := range pods {
						if !reflect.DeepEqual(p, snapshots[i]) {
							t.Errorf("listed pod %d was written", i)
						}
					}
				}
				if !fieldsShared(cached[1], cached[2]) || !fieldsShared(cached[2], cached[3]) {
					t.Error("cached pods do not share their FieldsV1 sets")
				}
			}))
		}
	}
}

// TestDeltaApplierPublishes applies pods to an informer's cache: a delta
// that brings an object in publishes a shared copy of it (the object
// itself with sharing off), a Sync delta replays the cached object.
func TestDeltaApplierPublishes(t *testing.T) {
	tests := []struct {
		typ    DeltaType
		dedup  bool
		copied bool
	}{
		{Added, true, true},
		{Updated, true, true},
		{Replaced, true, true},
		{Sync, true, false},
		{Added, false, false},
		{Replaced, false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/dedup=%v", tt.typ, tt.dedup), func(t *testing.T) {
			withSharing(t, tt.dedup)
			a := &deltaApplier{store: NewStore(MetaNamespaceKeyFunc), handler: handlerSink{ResourceEventHandlerFuncs{}}, sharing: newCacheSharing(nil)}
			first, second := realisticPod(t, 0, 1), realisticPod(t, 1, 1)
			first = cacheSharer.Copy(first).(*v1.Pod)
			if err := a.apply(Delta{Type: tt.typ, Object: second}, false); err != nil {
				t.Fatal(err)
			}
			got, _, _ := a.store.Get(second)
			if copied := got != any(second); copied != tt.copied {
				t.Fatalf("published a copy: %v, want %v", copied, tt.copied)
			}
			if shared := fieldsShared(first, got.(*v1.Pod)); shared != tt.copied {
				t.Errorf("shared: %v, want %v", shared, tt.copied)
			}
		})
	}
}

// cacheAwareDecoder is a decoder with a variant for caches, as the
// dynamic client's.
type cacheAwareDecoder struct{ kruntime.Decoder }

func (d cacheAwareDecoder) ForCache(*intern.DecodeSharing) kruntime.Decoder { return d }

// TestPublishTrustsSharedDecodes: once a marked request of the informer got
// a sharing decoder (wirecodec.ForContext), its objects are published as
// decoded; before that, and for an informer with a transform, as copies.
func TestPublishTrustsSharedDecodes(t *testing.T) {
	for _, tt := range []struct {
		name      string
		transform TransformFunc
		decoded   bool
		copied    bool
	}{
		{"no decode yet", nil, false, true},
		{"decoded sharing", nil, true, false},
		{"transform", func(o interface{}) (interface{}, error) { return o, nil }, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			withSharing(t, true)
			s := newCacheSharing(tt.transform)
			if tt.decoded {
				wirecodec.ForContext(s.requestContext(context.Background()), cacheAwareDecoder{})
			}
			p := realisticPod(t, 0, 1)
			if copied := s.publish(p) != any(p); copied != tt.copied {
				t.Errorf("copied: %v, want %v", copied, tt.copied)
			}
		})
	}
}

// TestTablesEmptyOnceInformersStop: while an informer runs, the tables
// hold what its objects share; once the last one stops they keep nothing
// alive, and the cached objects keep their values.
func TestTablesEmptyOnceInformersStop(t *testing.T) {
	withSharing(t, true)
	rig := startPodInformer(t, realisticPodList(t, 2, 1))
	raw := cachedPod(t, rig, 0).ManagedFields[0].FieldsV1.Raw
	if _, kept := cacheSharer.Fields.Find(raw); !kept {
		t.Fatal("a running informer's FieldsV1 set is not in the table")
	}
	rig.shutdown()
	if _, kept := cacheSharer.Fields.Find(raw); kept {
		t.Error("the table still holds the set after the informer stopped")
	}
	if want := realisticPod(t, 0, 1); !reflect.DeepEqual(cachedPod(t, rig, 0), want) {
		t.Error("the cached pod changed")
	}
}
