package cache

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	v1 "k8s.io/api/core/v1"

	clientfeatures "github.com/kubeclient/client-go/features"
	featuretesting "github.com/kubeclient/client-go/features/testing"
	fcache "github.com/kubeclient/client-go/tools/cache/testing"
)

// fifoGates is one setting of the AtomicFIFO and UnlockWhileProcessingFIFO
// feature gates.
type fifoGates struct{ atomic, unlock bool }

func (g fifoGates) String() string {
	return fmt.Sprintf("AtomicFIFO=%v,UnlockWhileProcessingFIFO=%v", g.atomic, g.unlock)
}

func (g fifoGates) set(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, clientfeatures.AtomicFIFO, g.atomic)
	featuretesting.SetFeatureDuringTest(t, clientfeatures.UnlockWhileProcessingFIFO, g.unlock)
}

var allFIFOGates = []fifoGates{{true, true}, {true, false}, {false, true}, {false, false}}

// TestInformerQueueFollowsFIFOGates builds an informer's queue under each
// setting of the gates and relists into it: with AtomicFIFO a relist is
// one ReplacedAll delta; without it the queue consults the store and
// queues a Deleted delta per stored object the list lacks, then a Replaced
// delta per listed object. Only with both gates on does the queue release
// its lock while processing.
func TestInformerQueueFollowsFIFOGates(t *testing.T) {
	for _, g := range allFIFOGates {
		t.Run(g.String(), func(t *testing.T) {
			g.set(t)
			store := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
			if err := store.Add(pod("ns", "gone", "1", nil)); err != nil {
				t.Fatal(err)
			}
			q := newInformerQueue(nil, nil, InformerNameAndResource{}, nil, store)
			if q.atomic != g.atomic || q.emitBookmarks != g.atomic {
				t.Errorf("atomic events %v, bookmark deltas %v; want %v", q.atomic, q.emitBookmarks, g.atomic)
			}
			if want := g.atomic && g.unlock; q.unlockWhileProcessing != want {
				t.Errorf("unlocks while processing: %v, want %v", q.unlockWhileProcessing, want)
			}

			if err := q.Replace([]interface{}{pod("ns", "kept", "2", nil)}, "2"); err != nil {
				t.Fatal(err)
			}
			var got []string
			for q.stream.pending() > 0 {
				if _, err := q.Pop(func(obj interface{}, _ bool) error {
					for _, d := range obj.(Deltas) {
						got = append(got, describeDelta(d))
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			want := []string{"ReplacedAll"}
			if !g.atomic {
				want = []string{"Deleted ns/gone", "Replaced ns/kept"}
			}
			if !slices.Equal(got, want) {
				t.Errorf("a relist queued %q, want %q", got, want)
			}
		})
	}
}

// describeDelta names a delta's type and, for one object, its key.
func describeDelta(d Delta) string {
	if d.Type == ReplacedAll || d.Type == SyncAll || d.Type == Bookmark {
		return string(d.Type)
	}
	key, err := DeletionHandlingMetaNamespaceKeyFunc(d.Object)
	if err != nil {
		return fmt.Sprintf("%s (%v)", d.Type, err)
	}
	return string(d.Type) + " " + key
}

// TestInformersFollowFIFOGates runs an informer of each kind under each
// setting of the gates: it fills its store and notifies its handler
// either way, and its store reports the resource version it is synced to
// only with AtomicFIFO, as client-go's do.
func TestInformersFollowFIFOGates(t *testing.T) {
	for _, g := range allFIFOGates {
		for _, kind := range []string{"NewInformerWithOptions", "SharedIndexInformer"} {
			t.Run(g.String()+"/"+kind, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					g.set(t)
					source := fcache.NewFakeControllerSource()
					defer source.Shutdown()
					source.Add(pod("ns", "a", "", nil))
					source.Add(pod("ns", "b", "", nil))
					added := make(chan string, 4)
					handler := ResourceEventHandlerFuncs{AddFunc: func(obj interface{}) { added <- obj.(*v1.Pod).Name }}
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					var store Store
					var synced func() bool
					switch kind {
					case "NewInformerWithOptions":
						s, ctrl := NewInformerWithOptions(InformerOptions{ListerWatcher: source, ObjectType: &v1.Pod{}, Handler: handler})
						go ctrl.RunWithContext(ctx)
						store, synced = s, ctrl.HasSynced
					default:
						inf := NewSharedIndexInformer(source, &v1.Pod{}, 0, Indexers{})
						if _, err := inf.AddEventHandler(handler); err != nil {
							t.Fatal(err)
						}
						go inf.RunWithContext(ctx)
						store, synced = inf.GetStore(), inf.HasSynced
					}
					got := []string{<-added, <-added}
					slices.Sort(got)
					if want := []string{"a", "b"}; !slices.Equal(got, want) {
						t.Fatalf("handler saw %q added, want %q", got, want)
					}
					settled(t, "sync", synced)
					if keys := store.ListKeys(); len(keys) != 2 {
						t.Errorf("store holds %q, want two pods", keys)
					}
					rv := store.LastStoreSyncResourceVersion()
					if (rv != "") != g.atomic {
						t.Errorf("LastStoreSyncResourceVersion() = %q with AtomicFIFO=%v", rv, g.atomic)
					}
				})
			})
		}
	}
}
