package cache

import (
	"strings"
	"testing"
)

func TestThreadSafeStoreDirect(t *testing.T) {
	s := NewThreadSafeStore(Indexers{"color": byLabel("color")}, Indices{})
	s.Add("k1", pod("a", "k1", "1", map[string]string{"color": "red"}))
	s.Update("k1", pod("a", "k1", "2", map[string]string{"color": "blue"}))
	if keys, _ := s.IndexKeys("color", "red"); len(keys) != 0 {
		t.Errorf("stale index entry: %v", keys)
	}
	s.Delete("k1")
	if _, ok := s.Get("k1"); ok {
		t.Error("Delete did not remove")
	}
	if vals := s.ListIndexFuncValues("color"); len(vals) != 0 {
		t.Errorf("index values left after delete: %v", vals)
	}
	tx := s.(ThreadSafeStoreWithTransaction)
	tx.Transaction(
		ThreadSafeStoreTransaction{Transaction{pod("a", "x", "5", nil), TransactionTypeAdd}, "x"},
		ThreadSafeStoreTransaction{Transaction{pod("a", "y", "6", nil), TransactionTypeAdd}, "y"},
		ThreadSafeStoreTransaction{Transaction{pod("a", "x", "7", nil), TransactionTypeDelete}, "x"},
	)
	if keys := s.ListKeys(); strings.Join(keys, ",") != "y" || s.LastStoreSyncResourceVersion() != "7" {
		t.Errorf("after transaction keys=%v rv=%q", keys, s.LastStoreSyncResourceVersion())
	}
}
