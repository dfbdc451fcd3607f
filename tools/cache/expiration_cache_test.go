package cache

import (
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
