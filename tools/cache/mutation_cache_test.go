package cache

import (
	"errors"
	"fmt"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	testingclock "k8s.io/utils/clock/testing"
)

func podWithUID(name, uid, rv string) *v1.Pod {
	p := pod("ns", name, rv, nil)
	p.UID = types.UID(uid)
	return p
}

// mutationStep is one call on a MutationCache in TestMutationCacheDeletion.
type mutationStep struct {
	mutate   *v1.Pod
	deleted  *v1.Pod
	informer *v1.Pod
}

func TestMutationCacheDeletion(t *testing.T) {
	tests := []struct {
		name string
		// backing is what the informer's store holds when GetByKey runs.
		backing *v1.Pod
		steps   []mutationStep
		wantRV  string // "" means GetByKey must report the object missing
	}{
		{
			name:   "delete of the same object drops the mutation",
			steps:  []mutationStep{{mutate: podWithUID("p", "u1", "3")}, {deleted: podWithUID("p", "u1", "2")}},
			wantRV: "",
		},
		{
			name:   "newer delete of another object drops the mutation",
			steps:  []mutationStep{{mutate: podWithUID("p", "u1", "3")}, {deleted: podWithUID("p", "u2", "4")}},
			wantRV: "",
		},
		{
			name:   "older delete of another object keeps the mutation",
			steps:  []mutationStep{{mutate: podWithUID("p", "u1", "3")}, {deleted: podWithUID("p", "u0", "1")}},
			wantRV: "3",
		},
		{
			name:   "late mutation of the deleted object is ignored",
			steps:  []mutationStep{{deleted: podWithUID("p", "u1", "5")}, {mutate: podWithUID("p", "u1", "6")}},
			wantRV: "",
		},
		{
			name:   "mutation at the deleted version is ignored",
			steps:  []mutationStep{{deleted: podWithUID("p", "u1", "5")}, {mutate: podWithUID("p", "u2", "5")}},
			wantRV: "",
		},
		{
			name:   "newer mutation of a recreated object is kept",
			steps:  []mutationStep{{deleted: podWithUID("p", "u1", "5")}, {mutate: podWithUID("p", "u2", "7")}},
			wantRV: "7",
		},
		{
			name:   "older mutation does not replace a newer one",
			steps:  []mutationStep{{mutate: podWithUID("p", "u1", "8")}, {mutate: podWithUID("p", "u1", "6")}},
			wantRV: "8",
		},
		{
			name:    "tombstone is not returned over the backing object",
			backing: podWithUID("p", "u2", "4"),
			steps:   []mutationStep{{deleted: podWithUID("p", "u1", "9")}},
			wantRV:  "4",
		},
		{
			name:   "informer update clears a tombstone",
			steps:  []mutationStep{{deleted: podWithUID("p", "u1", "5")}, {informer: podWithUID("p", "u2", "6")}, {mutate: podWithUID("p", "u1", "7")}},
			wantRV: "7",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			backing := NewStore(MetaNamespaceKeyFunc)
			if tc.backing != nil {
				if err := backing.Add(tc.backing); err != nil {
					t.Fatal(err)
				}
			}
			mc := NewIntegerResourceVersionMutationCache(klog.Background(), backing, nil, time.Hour, true)
			for _, s := range tc.steps {
				switch {
				case s.mutate != nil:
					mc.Mutation(s.mutate)
				case s.deleted != nil:
					mc.OnDelete(s.deleted)
				case s.informer != nil:
					mc.OnAddOrUpdate(s.informer)
				}
			}
			obj, exists, err := mc.GetByKey("ns/p")
			if err != nil {
				t.Fatal(err)
			}
			gotRV := ""
			if exists {
				gotRV = obj.(*v1.Pod).ResourceVersion
			}
			if gotRV != tc.wantRV {
				t.Errorf("GetByKey returned resourceVersion %q (exists %v), want %q", gotRV, exists, tc.wantRV)
			}
		})
	}
}

func TestMutationCacheByIndexSkipsTombstonesAndIndexErrors(t *testing.T) {
	indexer := NewIndexer(MetaNamespaceKeyFunc, Indexers{
		"name": func(obj interface{}) ([]string, error) {
			p := obj.(*v1.Pod)
			if p.Name == "bad" {
				return nil, errors.New("cannot index")
			}
			return []string{"all"}, nil
		},
	})
	mc := NewIntegerResourceVersionMutationCache(klog.Background(), indexer, indexer, time.Hour, true)
	mc.Mutation(podWithUID("bad", "u1", "1"))
	mc.Mutation(podWithUID("good", "u2", "2"))
	mc.OnDelete(podWithUID("gone", "u3", "3"))

	items, err := mc.ByIndex("name", "all")
	if err != nil {
		t.Fatalf("ByIndex: %v", err)
	}
	if len(items) != 1 || items[0].(*v1.Pod).Name != "good" {
		t.Errorf("ByIndex = %v, want only ns/good", keysOf(t, items))
	}
}

func TestMutationCache(t *testing.T) {
	backing := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	_ = backing.Add(pod("ns", "a", "5", nil))
	mc := NewIntegerResourceVersionMutationCacheWithOptions(klog.Background(), backing, MutationCacheOptions{Indexer: backing, IncludeAdds: true, TTL: time.Minute})

	mc.Mutation(pod("ns", "a", "7", nil)) // newer than the store
	obj, ok, _ := mc.GetByKey("ns/a")
	if !ok || obj.(*v1.Pod).ResourceVersion != "7" {
		t.Errorf("GetByKey = %v", obj)
	}
	mc.Mutation(pod("ns", "new", "8", nil)) // not in the store at all
	objs, err := mc.ByIndex(NamespaceIndex, "ns")
	if err != nil || len(objs) != 2 {
		t.Errorf("ByIndex = %v %v", objs, err)
	}
	if _, ok, _ := mc.GetByKey("ns/new"); !ok {
		t.Error("IncludeAdds mutation not returned")
	}
	mc.Mutation(pod("ns", "new", "8", nil))
	// The informer catches up: the store's version wins again.
	_ = backing.Update(pod("ns", "a", "9", nil))
	mc.OnAddOrUpdate(pod("ns", "a", "9", nil))
	obj, _, _ = mc.GetByKey("ns/a")
	if obj.(*v1.Pod).ResourceVersion != "9" {
		t.Errorf("after catch-up got rv %s", obj.(*v1.Pod).ResourceVersion)
	}
	mc.OnDelete(pod("ns", "new", "10", nil))
	if _, ok, _ := mc.GetByKey("ns/new"); ok {
		t.Error("mutation survived OnDelete")
	}

	noAdds := NewIntegerResourceVersionMutationCache(klog.Background(), backing, nil, time.Minute, false)
	noAdds.Mutation(pod("ns", "ghost", "1", nil))
	if _, ok, _ := noAdds.GetByKey("ns/ghost"); ok {
		t.Error("mutation of an absent object returned without IncludeAdds")
	}
	if _, err := noAdds.ByIndex(NamespaceIndex, "ns"); err == nil {
		t.Error("ByIndex without indexer must fail")
	}
}

func TestMutationCacheBounded(t *testing.T) {
	backing := NewStore(MetaNamespaceKeyFunc)
	mc := NewIntegerResourceVersionMutationCacheWithOptions(klog.Background(), backing, MutationCacheOptions{IncludeAdds: true, MaxCacheSize: 2})
	mc.Mutation(pod("ns", "a", "1", nil))
	mc.Mutation(pod("ns", "b", "1", nil))
	mc.Mutation(pod("ns", "c", "1", nil))
	if _, ok, _ := mc.GetByKey("ns/a"); ok {
		t.Error("least recently used entry not evicted")
	}
	if _, ok, _ := mc.GetByKey("ns/c"); !ok {
		t.Error("newest entry missing")
	}
}

// TestMutationCacheGetByKeyConsumesAdds: as in client-go, GetByKey returns
// a mutation of an object the backing store lacks once and then forgets
// it (ByIndex does not); a mutation newer than the stored object is served
// until the store catches up.
func TestMutationCacheGetByKeyConsumesAdds(t *testing.T) {
	backing := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	mc := NewIntegerResourceVersionMutationCache(klog.Background(), backing, backing, time.Hour, true)
	mc.Mutation(pod("ns", "a", "8", nil))
	for i := range 2 {
		if objs, _ := mc.ByIndex(NamespaceIndex, "ns"); len(objs) != 1 {
			t.Fatalf("ByIndex #%d = %d objects, want 1", i, len(objs))
		}
	}
	if obj, ok, _ := mc.GetByKey("ns/a"); !ok || obj.(*v1.Pod).ResourceVersion != "8" {
		t.Fatalf("first GetByKey = %v %v", obj, ok)
	}
	if obj, ok, _ := mc.GetByKey("ns/a"); ok {
		t.Fatalf("second GetByKey = %v, want the mutation forgotten", obj)
	}
	// Forgotten, an older mutation is accepted again.
	mc.Mutation(pod("ns", "a", "6", nil))
	if obj, ok, _ := mc.GetByKey("ns/a"); !ok || obj.(*v1.Pod).ResourceVersion != "6" {
		t.Fatalf("GetByKey after a new mutation = %v %v", obj, ok)
	}

	_ = backing.Add(pod("ns", "b", "1", nil))
	mc.Mutation(pod("ns", "b", "3", nil))
	for i := range 2 {
		if obj, _, _ := mc.GetByKey("ns/b"); obj.(*v1.Pod).ResourceVersion != "3" {
			t.Fatalf("GetByKey #%d of a stored object = rv %s, want the newer mutation", i, obj.(*v1.Pod).ResourceVersion)
		}
	}
	_ = backing.Update(pod("ns", "b", "3", nil))
	mc.Mutation(pod("ns", "b", "2", nil)) // older: ignored while the mutation at 3 is known
	if obj, _, _ := mc.GetByKey("ns/b"); obj.(*v1.Pod).ResourceVersion != "3" {
		t.Fatalf("GetByKey after catch-up = rv %s", obj.(*v1.Pod).ResourceVersion)
	}
}

// objectMeta is a value with a key and a resource version that is not a
// runtime.Object.
func objectMeta(rv string) *metav1.ObjectMeta {
	return &metav1.ObjectMeta{Namespace: "ns", Name: "a", UID: "u", ResourceVersion: rv}
}

// TestMutationCacheStoresValuesThatAreNotObjects: Mutation keeps any value
// with a key, as client-go's does; such values are not compared with
// others.
func TestMutationCacheStoresValuesThatAreNotObjects(t *testing.T) {
	type step func(backing Indexer, mc MutationCache)
	mutate := func(v interface{}) step { return func(_ Indexer, mc MutationCache) { mc.Mutation(v) } }
	store := func(v interface{}) step { return func(b Indexer, _ MutationCache) { _ = b.Add(v) } }
	unstore := func(v interface{}) step { return func(b Indexer, _ MutationCache) { _ = b.Delete(v) } }
	informerUpdate := func(v runtime.Object) step { return func(_ Indexer, mc MutationCache) { mc.OnAddOrUpdate(v) } }
	informerDelete := func(v runtime.Object) step { return func(_ Indexer, mc MutationCache) { mc.OnDelete(v) } }
	podA := func(rv string) *v1.Pod { p := podWithUID("a", "u", rv); return p }
	describe := func(v interface{}, ok bool, _ error) string {
		switch v := v.(type) {
		case *v1.Pod:
			return "pod " + v.ResourceVersion
		case *metav1.ObjectMeta:
			return "meta " + v.ResourceVersion
		case DeletedFinalStateUnknown:
			return "tombstone " + v.Key
		}
		return fmt.Sprint(v, ok)
	}
	for _, tc := range []struct {
		name    string
		steps   []step
		want    string // GetByKey("ns/a"), twice
		byIndex int
		// consumed: the second GetByKey finds nothing (an object mutation
		// of an object the store lacks is served once).
		consumed bool
	}{
		{name: "stored", steps: []step{mutate(objectMeta("2"))}, want: "meta 2", byIndex: 1},
		{name: "replaces an object mutation, even a newer one", steps: []step{mutate(podA("3")), mutate(objectMeta("2"))}, want: "meta 2", byIndex: 1},
		{name: "replaced by any object mutation", steps: []step{mutate(objectMeta("5")), mutate(podA("1"))}, want: "pod 1", byIndex: 1, consumed: true},
		{name: "replaces another value", steps: []step{mutate(objectMeta("x")), mutate(objectMeta("2"))}, want: "meta 2", byIndex: 1},
		{name: "ignores a tombstone", steps: []step{informerDelete(podA("2")), mutate(objectMeta("2"))}, want: "meta 2", byIndex: 1},
		{name: "kept by an informer update", steps: []step{mutate(objectMeta("5")), informerUpdate(podA("7"))}, want: "meta 5", byIndex: 1},
		{name: "dropped by an informer delete", steps: []step{mutate(objectMeta("5")), informerDelete(podWithUID("a", "other", "1"))}, want: "<nil> false"},
		{name: "the stored object wins", steps: []step{store(podA("1")), mutate(objectMeta("2"))}, want: "pod 1", byIndex: 1},
		{name: "served again once the object is gone", steps: []step{store(podA("1")), mutate(objectMeta("2")), unstore(podA("1"))}, want: "meta 2", byIndex: 1},
		{name: "a stored value that is not an object wins", steps: []step{store(objectMeta("1")), mutate(podA("2"))}, want: "meta 1", byIndex: 1},
		{name: "DeletedFinalStateUnknown under its key",
			steps: []step{mutate(DeletedFinalStateUnknown{Key: "ns/a", Obj: podA("3")})}, want: "tombstone ns/a"},
		{name: "values without a key are dropped", steps: []step{mutate("no key")}, want: "<nil> false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			backing := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
			mc := NewIntegerResourceVersionMutationCache(klog.Background(), backing, backing, time.Hour, true)
			for _, s := range tc.steps {
				s(backing, mc)
			}
			objs, err := mc.ByIndex(NamespaceIndex, "ns")
			if err != nil || len(objs) != tc.byIndex {
				t.Errorf("ByIndex = %d objects (%v), want %d", len(objs), err, tc.byIndex)
			}
			if got := describe(mc.GetByKey("ns/a")); got != tc.want {
				t.Errorf("GetByKey = %s, want %s", got, tc.want)
			}
			want := tc.want
			if tc.consumed {
				want = "<nil> false"
			}
			if got := describe(mc.GetByKey("ns/a")); got != want {
				t.Errorf("second GetByKey = %s, want %s", got, want)
			}
		})
	}
}

func TestCompareIntegerResourceVersions(t *testing.T) {
	withRV := func(rv string) runtime.Object { return pod("ns", "a", rv, nil) }
	for _, tc := range []struct {
		lhs, rhs runtime.Object
		want     int
	}{
		{withRV("2"), withRV("10"), -1},
		{withRV("10"), withRV("2"), 1},
		{withRV("7"), withRV("7"), 0},
		{withRV("x"), withRV("1"), -1}, // unparsable counts as oldest
		{withRV("1"), withRV(""), 1},
		{withRV("x"), withRV("y"), 0},
		{&metav1.Status{}, withRV("1"), -1}, // no metadata
	} {
		if got := compareIntegerResourceVersions(tc.lhs, tc.rhs); got != tc.want {
			t.Errorf("compare(%v, %v) = %d, want %d", tc.lhs, tc.rhs, got, tc.want)
		}
	}
	if sameUID(&metav1.Status{}, withRV("1")) || sameUID(withRV("1"), &metav1.Status{}) {
		t.Error("objects without metadata have no UID to share")
	}
}

// TestMutationCacheExpiry: mutations and tombstones last for the TTL.
func TestMutationCacheExpiry(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Unix(1000, 0))
	backing := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	mc := NewIntegerResourceVersionMutationCache(klog.Background(), backing, backing, time.Minute, true).(*mutationCache)
	mc.recent.clock = clk
	_ = backing.Add(pod("ns", "a", "1", nil))
	mc.Mutation(pod("ns", "a", "2", nil))
	mc.Mutation(pod("ns", "b", "2", nil))
	clk.Step(59 * time.Second)
	if obj, _, _ := mc.GetByKey("ns/a"); obj.(*v1.Pod).ResourceVersion != "2" {
		t.Error("mutation gone before its TTL")
	}
	clk.Step(2 * time.Second)
	if obj, _, _ := mc.GetByKey("ns/a"); obj.(*v1.Pod).ResourceVersion != "1" {
		t.Error("mutation served after its TTL")
	}
	if objs, _ := mc.ByIndex(NamespaceIndex, "ns"); len(objs) != 1 {
		t.Errorf("ByIndex after the TTL = %d objects, want the stored one", len(objs))
	}
	mc.OnAddOrUpdate(pod("ns", "b", "3", nil)) // nothing left to forget
	mc.OnDelete(pod("ns", "c", "4", nil))
	clk.Step(2 * time.Minute)
	mc.Mutation(pod("ns", "c", "3", nil)) // the tombstone expired
	if _, ok, _ := mc.GetByKey("ns/c"); !ok {
		t.Error("an expired tombstone still blocks a mutation")
	}
}
