package cache

import (
	"sync"
	"testing"
)

func TestUndeltaStorePushesSnapshots(t *testing.T) {
	var mu sync.Mutex
	var pushes []int
	u := NewUndeltaStore(func(items []interface{}) { mu.Lock(); pushes = append(pushes, len(items)); mu.Unlock() }, MetaNamespaceKeyFunc)
	_ = u.Add(pod("ns", "a", "1", nil))
	_ = u.Add(pod("ns", "b", "1", nil))
	_ = u.Update(pod("ns", "a", "2", nil))
	_ = u.Delete(pod("ns", "a", "3", nil))
	_ = u.Replace([]interface{}{pod("ns", "x", "1", nil), pod("ns", "y", "1", nil), pod("ns", "z", "1", nil)}, "4")
	if got := pushes; len(got) != 5 || got[0] != 1 || got[1] != 2 || got[2] != 2 || got[3] != 1 || got[4] != 3 {
		t.Errorf("pushes = %v", got)
	}
}
