package cache

import (
	"errors"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	testingclock "k8s.io/utils/clock/testing"
)

func TestTTLStoreExpires(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	deleted := make(chan string, 10)
	store := NewFakeExpirationStore(MetaNamespaceKeyFunc, deleted, &TTLPolicy{TTL: time.Minute, Clock: clk}, clk)
	_ = store.Add(pod("ns", "old", "1", nil))
	clk.Step(30 * time.Second)
	_ = store.Add(pod("ns", "new", "2", nil))
	clk.Step(45 * time.Second)
	if _, ok, _ := store.GetByKey("ns/old"); ok {
		t.Error("expired entry returned")
	}
	if key := <-deleted; key != "ns/old" {
		t.Errorf("deleted key = %q", key)
	}
	if objs := store.List(); len(objs) != 1 || objs[0].(*v1.Pod).Name != "new" {
		t.Errorf("List = %v", objs)
	}
	if keys := store.ListKeys(); len(keys) != 1 {
		t.Errorf("ListKeys = %v", keys)
	}
	_ = store.Replace([]interface{}{pod("ns", "r", "3", nil)}, "3")
	if store.LastStoreSyncResourceVersion() != "3" {
		t.Errorf("rv = %q", store.LastStoreSyncResourceVersion())
	}
	if obj, ok, _ := store.Get(pod("ns", "r", "", nil)); !ok || obj.(*v1.Pod).ResourceVersion != "3" {
		t.Errorf("Get after Replace = %v %v", obj, ok)
	}
}

func TestTTLPolicyZeroNeverExpires(t *testing.T) {
	p := &TTLPolicy{TTL: 0, Clock: testingclock.NewFakeClock(time.Now())}
	if p.IsExpired(&TimestampedEntry{Timestamp: time.Unix(0, 0)}) {
		t.Error("TTL 0 must never expire")
	}
	store := NewTTLStore(MetaNamespaceKeyFunc, time.Hour)
	_ = store.Add(pod("ns", "a", "1", nil))
	if _, ok, _ := store.GetByKey("ns/a"); !ok {
		t.Error("fresh entry missing")
	}
}

func TestFakeExpirationPolicy(t *testing.T) {
	p := &FakeExpirationPolicy{
		NeverExpire:     sets.New("ns/keep"),
		RetrieveKeyFunc: func(obj interface{}) (string, error) { return MetaNamespaceKeyFunc(obj.(*TimestampedEntry).Obj) },
	}
	store := NewExpirationStore(MetaNamespaceKeyFunc, p)
	_ = store.Add(pod("ns", "keep", "1", nil))
	_ = store.Add(pod("ns", "drop", "1", nil))
	if keys := keysOf(t, store.List()); strings.Join(keys, ",") != "ns/keep" {
		t.Errorf("List = %v", keys)
	}
}

// TestExpirationCacheOperations covers the Store methods of an
// ExpirationCache on a fake clock: which keys are live after each step and
// which deletions the fake store reports.
func TestExpirationCacheOperations(t *testing.T) {
	type step struct {
		do       func(s Store, clk *testingclock.FakeClock) error
		live     string // sorted live keys after the step (List)
		reported string // keys reported deleted by the step
	}
	add := func(name string) func(Store, *testingclock.FakeClock) error {
		return func(s Store, _ *testingclock.FakeClock) error { return s.Add(pod("ns", name, "1", nil)) }
	}
	update := func(name string) func(Store, *testingclock.FakeClock) error {
		return func(s Store, _ *testingclock.FakeClock) error { return s.Update(pod("ns", name, "2", nil)) }
	}
	del := func(name string) func(Store, *testingclock.FakeClock) error {
		return func(s Store, _ *testingclock.FakeClock) error { return s.Delete(pod("ns", name, "3", nil)) }
	}
	wait := func(d time.Duration) func(Store, *testingclock.FakeClock) error {
		return func(_ Store, clk *testingclock.FakeClock) error { clk.Step(d); return nil }
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"add and expire", []step{
			{do: add("a"), live: "ns/a"},
			{do: wait(61 * time.Second), live: "", reported: "ns/a"},
		}},
		{"update refreshes the timestamp", []step{
			{do: add("a"), live: "ns/a"},
			{do: wait(40 * time.Second), live: "ns/a"},
			{do: update("a"), live: "ns/a"},
			{do: wait(40 * time.Second), live: "ns/a"},
			{do: wait(30 * time.Second), live: "", reported: "ns/a"},
		}},
		{"delete is reported", []step{
			{do: add("a"), live: "ns/a"},
			{do: add("b"), live: "ns/a,ns/b"},
			{do: del("a"), live: "ns/b", reported: "ns/a"},
		}},
		{"replace stamps everything now", []step{
			{do: add("a"), live: "ns/a"},
			{do: wait(50 * time.Second), live: "ns/a"},
			{do: func(s Store, _ *testingclock.FakeClock) error {
				return s.Replace([]interface{}{pod("ns", "b", "5", nil), pod("ns", "c", "5", nil)}, "5")
			}, live: "ns/b,ns/c"},
			{do: wait(50 * time.Second), live: "ns/b,ns/c"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(time.Unix(1000, 0))
			deleted := make(chan string, 10)
			store := NewFakeExpirationStore(MetaNamespaceKeyFunc, deleted, &TTLPolicy{TTL: time.Minute, Clock: clk}, clk)
			for i, s := range tc.steps {
				if err := s.do(store, clk); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if got := strings.Join(keysOf(t, store.List()), ","); got != s.live {
					t.Errorf("step %d: live %q, want %q", i, got, s.live)
				}
				var reported []string
				for len(deleted) > 0 {
					reported = append(reported, <-deleted)
				}
				if got := strings.Join(sorted(reported), ","); got != s.reported {
					t.Errorf("step %d: reported %q, want %q", i, got, s.reported)
				}
			}
		})
	}
}

func TestExpirationCacheKeyErrorsAndVersions(t *testing.T) {
	store := NewExpirationStore(MetaNamespaceKeyFunc, &TTLPolicy{TTL: time.Hour, Clock: testingclock.NewFakeClock(time.Now())})
	for name, err := range map[string]error{
		"Add":     store.Add("no meta"),
		"Update":  store.Update("no meta"),
		"Delete":  store.Delete("no meta"),
		"Replace": store.Replace([]interface{}{"no meta"}, "1"),
	} {
		if !errors.As(err, new(KeyError)) {
			t.Errorf("%s without a key = %v, want KeyError", name, err)
		}
	}
	if _, _, err := store.Get("no meta"); !errors.As(err, new(KeyError)) {
		t.Errorf("Get without a key = %v", err)
	}
	if err := store.Resync(); err != nil {
		t.Errorf("Resync = %v", err)
	}
	store.Bookmark("42")
	if rv := store.LastStoreSyncResourceVersion(); rv != "42" {
		t.Errorf("resource version after Bookmark = %q", rv)
	}
	_ = store.Add(pod("ns", "a", "43", nil))
	if obj, ok, err := store.Get(pod("ns", "a", "", nil)); !ok || err != nil || obj.(*v1.Pod).ResourceVersion != "43" {
		t.Errorf("Get = %v %v %v", obj, ok, err)
	}
}
