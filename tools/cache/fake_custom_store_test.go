package cache

import (
	"strings"
	"testing"
)

func TestFakeCustomStore(t *testing.T) {
	calls := []string{}
	s := &FakeCustomStore{
		AddFunc:      func(interface{}) error { calls = append(calls, "add"); return nil },
		BookmarkFunc: func(rv string) { calls = append(calls, "bookmark "+rv) },
	}
	_ = s.Add(nil)
	s.Bookmark("7")
	_ = s.Update(nil) // unset: no-op
	if strings.Join(calls, ";") != "add;bookmark 7" {
		t.Errorf("calls = %v", calls)
	}
	if s.List() != nil || s.LastStoreSyncResourceVersion() != "" {
		t.Error("unset funcs must return zero values")
	}
}
