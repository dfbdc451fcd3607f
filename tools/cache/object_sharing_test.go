package cache

import (
	"context"
	"errors"
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

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// withSharer runs the test with objects shared by s.
func withSharer(t *testing.T, dedup string) {
	saved, savedDecoding := cacheSharer, cacheDecoding
	cacheSharer = newCacheSharer(dedup)
	cacheDecoding = newCacheDecoding(cacheSharer)
	t.Cleanup(func() { cacheSharer, cacheDecoding = saved, savedDecoding })
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

// sharedSoFar tells how far the pods delivered so far were shared: their
// label values interned, their equal FieldsV1 sets one slice. One label
// value found in the string table is enough, as strings interned later
// may take the slots of the others.
func sharedSoFar(a, b *v1.Pod) (stringsShared, fieldsShared bool) {
	for _, p := range []*v1.Pod{a, b} {
		for _, key := range arrivalLabels {
			if _, ok := intern.SharedStrings().Find(p.Labels[key]); ok {
				stringsShared = true
			}
		}
	}
	rawA, rawB := a.ManagedFields[0].FieldsV1.Raw, b.ManagedFields[0].FieldsV1.Raw
	return stringsShared, &rawA[0] == &rawB[0]
}

// TestReflectorSharesListsOnArrival lists three pods in two pages, or
// streams them as watch-list initial events, and looks at the first two
// when the reflector asks for the next page (or takes the third event):
// an informer's reflector has shared them already, only their strings
// when the informer transforms objects; a reflector of one's own shares
// nothing. Whatever the mode, the stored pods equal the listed ones.
func TestReflectorSharesListsOnArrival(t *testing.T) {
	modes := []struct {
		name          string
		sharer        *intern.Sharer
		strings, full bool
	}{
		{"reflector of one's own", nil, false, false},
		{"informer with a transform", newListSharing(func(o interface{}) (interface{}, error) { return o, nil }).sharer, true, false},
		{"informer without a transform", newCacheSharer("true"), true, true},
	}
	for _, m := range modes {
		for _, watchList := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/watchList=%v", m.name, watchList), func(t *testing.T) {
				pods := labeledPods(t, 3)
				var stringsShared, fieldsShared bool
				stream := watch.NewFake()
				lw := &scriptedLW{
					list: func(_ int, opts metav1.ListOptions) (kruntime.Object, error) {
						return nil, errors.New("unused")
					},
					watch: func(call int, _ metav1.ListOptions) (watch.Interface, error) {
						if call == 1 && watchList {
							return stream, nil
						}
						return watch.NewFake(), nil
					},
				}
				if !watchList {
					var first *v1.PodList
					lw.list = func(_ int, opts metav1.ListOptions) (kruntime.Object, error) {
						if opts.Continue == "" {
							first = podList("5", "next", pods[0], pods[1])
							return first, nil
						}
						stringsShared, fieldsShared = sharedSoFar(&first.Items[0], &first.Items[1])
						return podList("5", "", pods[2]), nil
					}
				}
				store := NewStore(MetaNamespaceKeyFunc)
				r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
				r.useWatchList = watchList
				r.sharing.sharer = m.sharer
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				done := make(chan struct{})
				go func() { defer close(done); r.RunWithContext(ctx) }()
				defer func() { cancel(); <-done }()
				if watchList {
					want := labeledPods(t, 3)
					for _, p := range want {
						stream.Add(p)
					}
					// The third event was taken: the first two were applied.
					stringsShared, fieldsShared = sharedSoFar(want[0], want[1])
					end := pod("", "", "9", nil)
					end.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
					stream.Action(watch.Bookmark, end)
				}
				waitUntil(t, "the sync", func() bool { return len(store.ListKeys()) == 3 })
				if stringsShared != m.strings || fieldsShared != m.full {
					t.Errorf("before the list ended: strings shared %v, FieldsV1 shared %v; want %v, %v", stringsShared, fieldsShared, m.strings, m.full)
				}
				for _, want := range labeledPods(t, 3) {
					got, _, _ := store.Get(want)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("stored pod %s differs from the listed one", want.Name)
					}
				}
			})
		}
	}
}

// TestInformersShareListsOnArrival runs both kinds of informer over a list
// of three pods in two pages, with and without a transform that writes
// into the first pod's FieldsV1 set. Without a transform the first page
// is shared before the second is asked for; with one its byte slices are
// not, so the write stays the first pod's own, and they are shared as the
// pods enter the cache. The list and watch requests are marked for
// decoding with sharing (wirecodec.WithCacheDecoding) only without a
// transform.
func TestInformersShareListsOnArrival(t *testing.T) {
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
			t.Run(fmt.Sprintf("%s/transform=%v", name, transform != nil), func(t *testing.T) {
				withSharer(t, "true")
				pods := labeledPods(t, 3)
				var fieldsShared bool
				var listMarked, watchMarked atomic.Bool
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
						return watch.NewFake(), nil
					},
				}
				lw.ListWithContextFunc = firstPageProbe(lw.ListWithContextFunc, func(first *v1.PodList) {
					_, fieldsShared = sharedSoFar(&first.Items[0], &first.Items[1])
				})
				store, run := newInformer(ToListWatcherWithWatchListSemantics(lw, listThenWatch{}), transform)
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); run(ctx) }()
				waitUntil(t, "the sync", func() bool { return len(store.ListKeys()) == 3 })
				waitUntil(t, "the watch", func() bool { return watchMarked.Load() || transform != nil })
				cancel()
				<-done
				if want := transform == nil; listMarked.Load() != want || watchMarked.Load() != want {
					t.Errorf("requests marked for decoding with sharing: list %v, watch %v, want %v", listMarked.Load(), watchMarked.Load(), want)
				}
				if want := transform == nil; fieldsShared != want {
					t.Errorf("first page's FieldsV1 shared before the second page: %v, want %v", fieldsShared, want)
				}
				want := labeledPods(t, 3)
				if transform != nil {
					_, _ = writeFirst(want[0])
				}
				var cached []*v1.Pod
				for _, w := range want {
					got, _, _ := store.Get(w)
					if !reflect.DeepEqual(got, w) {
						t.Fatalf("cached pod %s differs from the listed (and transformed) one", w.Name)
					}
					cached = append(cached, got.(*v1.Pod))
				}
				if _, shared := sharedSoFar(cached[1], cached[2]); !shared {
					t.Error("cached pods do not share their FieldsV1 sets")
				}
			})
		}
	}
}

// firstPageProbe wraps list so that probe sees the first page when the
// second one is asked for.
func firstPageProbe(list func(context.Context, metav1.ListOptions) (kruntime.Object, error), probe func(first *v1.PodList)) func(context.Context, metav1.ListOptions) (kruntime.Object, error) {
	var first *v1.PodList
	return func(ctx context.Context, opts metav1.ListOptions) (kruntime.Object, error) {
		page, err := list(ctx, opts)
		if opts.Continue == "" {
			first, _ = page.(*v1.PodList)
		} else if first != nil {
			probe(first)
		}
		return page, err
	}
}

// TestDeltaApplierSharesWhatListsLeft applies pods to an informer's cache:
// each kind of delta shares its object unless the list shared it on arrival
// already.
func TestDeltaApplierSharesWhatListsLeft(t *testing.T) {
	tests := []struct {
		typ          DeltaType
		listedShared bool
		want         bool
	}{
		{Added, false, true},
		{Updated, false, true},
		{Replaced, false, true},
		{Added, true, true},
		{Updated, true, true},
		{Replaced, true, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/listedShared=%v", tt.typ, tt.listedShared), func(t *testing.T) {
			withSharer(t, "true")
			a := &deltaApplier{store: NewStore(MetaNamespaceKeyFunc), handler: handlerSink{ResourceEventHandlerFuncs{}}, listedShared: tt.listedShared}
			first, second := realisticPod(t, 0, 1), realisticPod(t, 1, 1)
			shareCached(first)
			if err := a.apply(Delta{Type: tt.typ, Object: second}, false); err != nil {
				t.Fatal(err)
			}
			rawA, rawB := first.ManagedFields[0].FieldsV1.Raw, second.ManagedFields[0].FieldsV1.Raw
			if shared := &rawA[0] == &rawB[0]; shared != tt.want {
				t.Errorf("shared: %v, want %v", shared, tt.want)
			}
		})
	}
}

// TestShareCachedSkipsObjectsDecodedWithSharing: an object the decoders
// shared already (cacheDecoding.Decoded) is not walked again.
func TestShareCachedSkipsObjectsDecodedWithSharing(t *testing.T) {
	for _, decoded := range []bool{false, true} {
		t.Run(fmt.Sprintf("decoded=%v", decoded), func(t *testing.T) {
			withSharer(t, "true")
			first, second := realisticPod(t, 0, 1), realisticPod(t, 1, 1)
			shareCached(first)
			if decoded {
				cacheDecoding.NoteDecoded(second)
			}
			shareCached(second)
			if _, shared := sharedSoFar(first, second); shared == decoded {
				t.Errorf("FieldsV1 shared: %v, want %v", shared, !decoded)
			}
		})
	}
}
