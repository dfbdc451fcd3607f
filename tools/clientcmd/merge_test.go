package clientcmd

import (
	"reflect"
	"testing"
)

type opaque struct{ hidden int }

type inner struct {
	Name string
}

type sample struct {
	Str     string
	Num     int
	Flag    bool
	Slice   []string
	Map     map[string]int
	Ptr     *inner
	IntPtr  *int
	Iface   any
	Opaque  opaque
	Nested  inner
	private string
}

func TestOverlay(t *testing.T) {
	seven := 7
	shared := &inner{Name: "shared"}
	dst := sample{Str: "keep", Num: 1, Slice: []string{"a"}, Map: map[string]int{"x": 1, "y": 2}, Nested: inner{Name: "old"}, Opaque: opaque{hidden: 1}, private: "p"}
	src := sample{Num: 2, Flag: true, Map: map[string]int{"y": 20, "z": 30}, Ptr: shared, IntPtr: &seven, Iface: "v", Nested: inner{Name: "new"}, Opaque: opaque{hidden: 0}, private: "q"}

	if err := overlay(&dst, &src); err != nil {
		t.Fatal(err)
	}
	want := sample{
		Str: "keep", Num: 2, Flag: true, Slice: []string{"a"},
		Map: map[string]int{"x": 1, "y": 20, "z": 30}, Ptr: shared, IntPtr: &seven, Iface: "v",
		Nested: inner{Name: "new"}, Opaque: opaque{hidden: 0}, private: "p",
	}
	if !reflect.DeepEqual(dst, want) {
		t.Errorf("overlay =\n%+v\nwant\n%+v", dst, want)
	}
	if dst.Ptr != shared {
		t.Errorf("struct pointers must be shared")
	}
	if dst.IntPtr == &seven {
		t.Errorf("non-struct pointers must be copied")
	}

	// Zero values never clear, and an empty non-nil map still allocates.
	var empty sample
	if err := overlay(&empty, &sample{Map: map[string]int{}}); err != nil {
		t.Fatal(err)
	}
	if empty.Map == nil || len(empty.Map) != 0 {
		t.Errorf("empty map src: %#v", empty.Map)
	}

	if err := overlay[sample](nil, &src); err == nil {
		t.Errorf("nil dst must fail")
	}
	if err := overlay(&dst, nil); err != nil {
		t.Errorf("nil src must be a no-op, got %v", err)
	}
}
