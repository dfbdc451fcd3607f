package protodecode

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestSlabValuesAreEachObjects: the small values a decode takes from its
// slab (optional scalars, times, strings) are each object's own: writing
// through one object's pointer changes no other object of the list, and
// the decoded objects equal the reference's.
func TestSlabValuesAreEachObjects(t *testing.T) {
	defer fastpath.DecodeSlabs.Set(true)()
	data, err := wiretest.PodList(3, 0).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var want corev1.PodList
	if err := want.Unmarshal(data); err != nil {
		t.Fatal(err)
	}
	got := &corev1.PodList{}
	if handled, err := Into(data, got); !handled || err != nil {
		t.Fatal(handled, err)
	}
	if !reflect.DeepEqual(got, &want) {
		t.Fatal("decoded list differs from the reference's")
	}

	writes := []struct {
		name  string
		write func(p *corev1.Pod)
	}{
		{"*int64", func(p *corev1.Pod) { *p.Spec.TerminationGracePeriodSeconds = 999 }},
		{"*bool", func(p *corev1.Pod) { *p.OwnerReferences[0].Controller = false }},
		{"*metav1.Time", func(p *corev1.Pod) {
			*p.ManagedFields[0].Time = metav1.NewTime(time.Unix(1, 0))
		}},
		{"*Time in status", func(p *corev1.Pod) { *p.Status.StartTime = metav1.NewTime(time.Unix(2, 0)) }},
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) {
			w.write(&got.Items[0])
			for i := 1; i < len(got.Items); i++ {
				if !reflect.DeepEqual(got.Items[i], want.Items[i]) {
					t.Errorf("writing into item 0 changed item %d", i)
				}
			}
		})
	}
}

// TestSlabAllocations: with slabs, a list of pods decodes in fewer
// allocations than with every small value allocated alone.
func TestSlabAllocations(t *testing.T) {
	list := wiretest.PodList(8, 0)
	data, err := list.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(on bool) float64 {
		defer fastpath.DecodeSlabs.Set(on)()
		return testing.AllocsPerRun(20, func() {
			if handled, err := Into(data, &corev1.PodList{}); !handled || err != nil {
				t.Fatal(handled, err)
			}
		})
	}
	alone, slabs := allocs(false), allocs(true)
	if slabs > alone*0.85 {
		t.Errorf("decoding with slabs took %v allocations, alone %v: want at least 15%% fewer", slabs, alone)
	}
	t.Logf("allocations per list of %d pods: %v alone, %v with slabs", len(list.Items), alone, slabs)
}

// TestSlabBytesOfOneObject: the chunks a single object's decode cuts are
// sized to what it takes of each kind, so that with slabs a pod takes
// hardly more memory than with every small value allocated alone (a
// chunk of string pointers is not sized by the times before it).
func TestSlabBytesOfOneObject(t *testing.T) {
	data, err := wiretest.PodList(1, 0).Items[0].Marshal()
	if err != nil {
		t.Fatal(err)
	}
	bytesPerDecode := func(on bool) uint64 {
		defer fastpath.DecodeSlabs.Set(on)()
		const runs = 50
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			if handled, err := Into(data, &corev1.Pod{}); !handled || err != nil {
				t.Fatal(handled, err)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / runs
	}
	bytesPerDecode(true) // warm up the intern table
	alone, slabs := bytesPerDecode(false), bytesPerDecode(true)
	t.Logf("bytes per pod of %d bytes on the wire: %d alone, %d with slabs", len(data), alone, slabs)
	if slabs > alone+alone/10 {
		t.Errorf("a pod decoded with slabs took %d bytes, alone %d: want at most 10%% more", slabs, alone)
	}
}

// TestListItemsOwnTheirValues: a list decoded for a caller, large enough
// for its arrays, optional messages and bytes to come from typed chunks
// shared by its items, and for its items' strings and bytes to be their
// own copies of the wire (see wire.AppendItem), gives each item values of
// its own: writing every value reachable from one item, and appending to
// each of its slices, changes no other item, and none of its own strings.
func TestListItemsOwnTheirValues(t *testing.T) {
	defer fastpath.DecodeSlabs.Set(true)()
	data, err := wiretest.PodList(40, 12).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 64<<10 { // the size from which a decode keeps typed chunks
		t.Fatalf("list of %d bytes is too small to be decoded with typed chunks", len(data))
	}
	var want corev1.PodList
	if err := want.Unmarshal(data); err != nil {
		t.Fatal(err)
	}
	for _, written := range []int{0, 20, 51} {
		got := &corev1.PodList{}
		if handled, err := Into(data, got); !handled || err != nil {
			t.Fatal(handled, err)
		}
		if !reflect.DeepEqual(got, &want) {
			t.Fatal("decoded list differs from the reference's")
		}
		var strs []string
		collectStrings(reflect.ValueOf(got.Items[written]), &strs)
		clones := make([]string, len(strs))
		for i, s := range strs {
			clones[i] = strings.Clone(s)
		}
		writeEverything(reflect.ValueOf(&got.Items[written]).Elem())
		for i, s := range strs {
			if s != clones[i] {
				t.Errorf("writing into item %d changed its string %q to %q", written, clones[i], s)
			}
		}
		for i := range got.Items {
			if i != written && !reflect.DeepEqual(got.Items[i], want.Items[i]) {
				t.Errorf("writing into item %d changed item %d", written, i)
			}
		}
	}
}

// writeEverything writes every settable value reachable from v: bytes,
// numbers and booleans are changed, slices get one more element, maps one
// more entry, and what slices, maps and pointers hold is written in turn.
func writeEverything(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			writeEverything(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				writeEverything(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			writeEverything(v.Index(i))
		}
		if v.CanSet() {
			v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		if v.Type().Key().Kind() == reflect.String {
			v.SetMapIndex(reflect.ValueOf("written").Convert(v.Type().Key()), reflect.New(v.Type().Elem()).Elem())
		}
	case reflect.Uint8:
		if v.CanSet() {
			v.SetUint(v.Uint() ^ 0xa5)
		}
	case reflect.Int, reflect.Int32, reflect.Int64:
		if v.CanSet() {
			v.SetInt(v.Int() + 7)
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	}
}

// collectStrings appends every string reachable from v, unexported fields
// included, to out.
func collectStrings(v reflect.Value, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		*out = append(*out, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectStrings(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			collectStrings(v.Field(i), out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectStrings(v.Index(i), out)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			collectStrings(iter.Key(), out)
			collectStrings(iter.Value(), out)
		}
	}
}

// TestCallerObjectsInternNothing: an object decoded for its caller gets
// strings of its own, while one decoded for an informer's cache, with a
// DecodeSharing, shares them with the objects decoded before it.
func TestCallerObjectsInternNothing(t *testing.T) {
	data, err := wiretest.PodList(1, 0).Items[0].Marshal()
	if err != nil {
		t.Fatal(err)
	}
	namespaces := func(decode func(*corev1.Pod) (bool, error)) [2]string {
		var ns [2]string
		for i := range ns {
			pod := &corev1.Pod{}
			if handled, err := decode(pod); !handled || err != nil {
				t.Fatal(handled, err)
			}
			ns[i] = pod.Namespace
		}
		return ns
	}
	same := func(ns [2]string) bool {
		return ns[0] != "" && unsafe.StringData(ns[0]) == unsafe.StringData(ns[1])
	}
	if ns := namespaces(func(p *corev1.Pod) (bool, error) { return Into(data, p) }); same(ns) {
		t.Error("two objects decoded for the caller share their namespace string")
	}
	if !fastpath.Interning.On() || !fastpath.CacheDedup.On() {
		return
	}
	if ns := namespaces(func(p *corev1.Pod) (bool, error) { return IntoSharing(data, p, testSharing, true) }); !same(ns) {
		t.Error("two objects decoded for a cache do not share their namespace string")
	}
}

// TestCallerListAllocations: a large list decoded for its caller takes
// its items' arrays and optional messages from typed chunks, and their
// strings and bytes from each item's copy, so that an item costs a few
// allocations, not one per value.
func TestCallerListAllocations(t *testing.T) {
	defer fastpath.DecodeSlabs.Set(true)()
	list := wiretest.PodList(40, 0)
	data, err := list.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	perItem := testing.AllocsPerRun(10, func() {
		if handled, err := Into(data, &corev1.PodList{}); !handled || err != nil {
			t.Fatal(handled, err)
		}
	}) / float64(len(list.Items))
	t.Logf("allocations per item of a list of %d pods: %.1f", len(list.Items), perItem)
	if perItem > 35 {
		t.Errorf("a list item took %.1f allocations, want at most 35 (54 without typed chunks and item copies)", perItem)
	}
}
