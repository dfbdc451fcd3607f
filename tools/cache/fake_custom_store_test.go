package cache

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// TestFakeCustomStore checks every method: with its function set the call
// and its results pass through; unset it returns zero values.
func TestFakeCustomStore(t *testing.T) {
	failed := errors.New("failed")
	var calls []string
	record := func(format string, args ...interface{}) { calls = append(calls, fmt.Sprintf(format, args...)) }
	set := &FakeCustomStore{
		AddFunc:    func(obj interface{}) error { record("add %v", obj); return failed },
		UpdateFunc: func(obj interface{}) error { record("update %v", obj); return failed },
		DeleteFunc: func(obj interface{}) error { record("delete %v", obj); return failed },
		ListFunc:   func() []interface{} { record("list"); return []interface{}{"x"} },
		ListKeysFunc: func() []string {
			record("listkeys")
			return []string{"k"}
		},
		GetFunc: func(obj interface{}) (interface{}, bool, error) { record("get %v", obj); return "item", true, failed },
		GetByKeyFunc: func(key string) (interface{}, bool, error) {
			record("getbykey %s", key)
			return "item", true, failed
		},
		ReplaceFunc: func(list []interface{}, rv string) error { record("replace %v %s", list, rv); return failed },
		ResyncFunc:  func() error { record("resync"); return failed },
		BookmarkFunc: func(rv string) {
			record("bookmark %s", rv)
		},
		LastStoreSyncResourceVersionFunc: func() string { record("rv"); return "9" },
	}
	exercise := func(s *FakeCustomStore) []interface{} {
		item, exists, getErr := s.Get("o")
		byKey, byKeyExists, byKeyErr := s.GetByKey("k")
		s.Bookmark("5")
		return []interface{}{
			s.Add("o"), s.Update("o"), s.Delete("o"), s.List(), s.ListKeys(),
			item, exists, getErr, byKey, byKeyExists, byKeyErr,
			s.Replace([]interface{}{"o"}, "3"), s.Resync(), s.LastStoreSyncResourceVersion(),
		}
	}
	got := exercise(set)
	want := []interface{}{failed, failed, failed, []interface{}{"x"}, []string{"k"},
		"item", true, failed, "item", true, failed, failed, failed, "9"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results with functions set:\n%v\nwant\n%v", got, want)
	}
	wantCalls := []string{"get o", "getbykey k", "bookmark 5", "add o", "update o", "delete o", "list", "listkeys", "replace [o] 3", "resync", "rv"}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("calls %v, want %v", calls, wantCalls)
	}

	zero := exercise(&FakeCustomStore{})
	wantZero := []interface{}{nil, nil, nil, []interface{}(nil), []string(nil), nil, false, nil, nil, false, nil, nil, nil, ""}
	if !reflect.DeepEqual(zero, wantZero) {
		t.Errorf("results with nothing set:\n%#v\nwant\n%#v", zero, wantZero)
	}
}
