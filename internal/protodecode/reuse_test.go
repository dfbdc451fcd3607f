package protodecode

import (
	"reflect"
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// sameArray reports whether two non-empty slices share their first element.
func sameArray[T any](a, b []T) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

// decodeInto resets obj and decodes b into it with share, checking it
// against the reference.
func decodeInto(t *testing.T, b []byte, obj message, share *intern.DecodeSharing, fresh bool) {
	t.Helper()
	obj.Reset()
	want := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(message)
	if err := want.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if handled, err := IntoSharing(b, obj, share, fresh); !handled || err != nil {
		t.Fatalf("IntoSharing: handled %v, %v", handled, err)
	}
	if !reflect.DeepEqual(obj, want) {
		t.Fatalf("decoded %T differs from the reference\n%s", obj, diff(want, obj))
	}
}

func newShare() *intern.DecodeSharing { return intern.NewDecodeSharing(intern.NewBytes(64, 16<<10)) }

// TestReusedSpecs: the spec of an object is reused from a live object
// decoded before from the same bytes, when that one was new (or an item of
// a list); never from a caller's object, nor from one whose decoding
// failed, nor from one the collector has freed.
func TestReusedSpecs(t *testing.T) {
	pod := wiretest.Pod("web-1")
	data := marshalPod(t, pod)
	other := wiretest.Pod("web-2")
	other.Spec.NodeName = "node-9"
	otherData := marshalPod(t, other)
	list, err := (&corev1.PodList{Items: []corev1.Pod{*pod, *other}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("new objects share equal specs", func(t *testing.T) {
		share := newShare()
		a, b, c := &corev1.Pod{}, &corev1.Pod{}, &corev1.Pod{}
		decodeInto(t, data, a, share, true)
		decodeInto(t, data, b, share, true)
		decodeInto(t, otherData, c, share, true)
		if !sameArray(a.Spec.Containers, b.Spec.Containers) {
			t.Error("equal specs not shared")
		}
		if sameArray(a.Spec.Containers, c.Spec.Containers) {
			t.Error("different specs shared")
		}
		runtime.KeepAlive(a)
	})
	t.Run("a caller's object is not kept", func(t *testing.T) {
		share := newShare()
		mine, b := &corev1.Pod{}, &corev1.Pod{}
		decodeInto(t, data, mine, share, false)
		decodeInto(t, data, b, share, true)
		if sameArray(mine.Spec.Containers, b.Spec.Containers) {
			t.Error("spec of the caller's object reused")
		}
		// The caller decodes into its object again: b is untouched.
		decodeInto(t, otherData, mine, share, false)
		decodeInto(t, data, &corev1.Pod{}, share, true)
	})
	t.Run("items of a caller's list are kept", func(t *testing.T) {
		share := newShare()
		l, b := &corev1.PodList{}, &corev1.Pod{}
		decodeInto(t, list, l, share, false)
		decodeInto(t, otherData, b, share, true)
		if !sameArray(l.Items[1].Spec.Containers, b.Spec.Containers) {
			t.Error("spec of a listed item not reused")
		}
		// A new decode into the same list gets new items; b stays intact.
		decodeInto(t, list, l, share, false)
		decodeInto(t, otherData, &corev1.Pod{}, share, true)
	})
	t.Run("equal specs one after the other in a list are shared", func(t *testing.T) {
		twin := wiretest.Pod("web-1b") // web-1's spec, another name
		runs, err := (&corev1.PodList{Items: []corev1.Pod{*pod, *twin, *other, *pod}}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		l := &corev1.PodList{}
		decodeInto(t, runs, l, newShare(), false)
		it := l.Items
		if !sameArray(it[0].Spec.Containers, it[1].Spec.Containers) {
			t.Error("the spec of the item after an equal one not shared")
		}
		if sameArray(it[1].Spec.Containers, it[2].Spec.Containers) || sameArray(it[2].Spec.Containers, it[3].Spec.Containers) {
			t.Error("different specs shared")
		}
	})
	t.Run("a list whose decode fails shares nothing after it", func(t *testing.T) {
		share := newShare()
		twins, err := (&corev1.PodList{Items: []corev1.Pod{*pod, *pod}}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		// A third item says it is five bytes long, and one follows.
		broken := append(twins, 0x0a, 0x05, 0x01)
		failed := &corev1.PodList{}
		if _, err := IntoSharing(broken, failed, share, false); err == nil {
			t.Fatal("truncated list decoded")
		}
		if !sameArray(failed.Items[0].Spec.Containers, failed.Items[1].Spec.Containers) {
			t.Fatal("the second item did not copy the first: the case is not tested")
		}
		b := &corev1.Pod{}
		decodeInto(t, data, b, share, true)
		for _, item := range failed.Items {
			if sameArray(item.Spec.Containers, b.Spec.Containers) {
				t.Error("spec of a failed list decode reused")
			}
		}
	})
	t.Run("a failed decode keeps nothing", func(t *testing.T) {
		share := newShare()
		truncated := data[:len(data)-3] // the spec decodes, the status does not
		a := &corev1.Pod{}
		if _, err := IntoSharing(truncated, a, share, true); err == nil {
			t.Fatal("truncated pod decoded")
		}
		b, c := &corev1.Pod{}, &corev1.Pod{}
		decodeInto(t, data, b, share, true)
		if sameArray(a.Spec.Containers, b.Spec.Containers) {
			t.Error("spec of a failed decode reused")
		}
		decodeInto(t, data, c, share, true)
		if !sameArray(b.Spec.Containers, c.Spec.Containers) {
			t.Error("equal specs not shared after a failed decode")
		}
	})
	t.Run("freed objects are not reused", func(t *testing.T) {
		share := newShare()
		decodeInto(t, data, &corev1.Pod{}, share, true)
		runtime.GC()
		runtime.GC()
		decodeInto(t, data, &corev1.Pod{}, share, true)
	})
}

// TestReusedSpecTwice: an object whose spec is on the wire twice (the
// reference merges the second into the first) is left to the reference,
// so that nothing is merged into a reused spec.
func TestReusedSpecTwice(t *testing.T) {
	pod := wiretest.Pod("web-1")
	pod.Spec.NodeSelector = map[string]string{"zone": "a"}
	data := marshalPod(t, pod)
	second := &corev1.Pod{Spec: corev1.PodSpec{NodeName: "node-2", NodeSelector: map[string]string{"disk": "ssd"}, Containers: []corev1.Container{{Name: "extra"}}}}
	twice := append(append([]byte(nil), data...), marshalPod(t, second)...)
	share := newShare()
	first := &corev1.Pod{}
	decodeInto(t, data, first, share, true)
	before := first.DeepCopy()

	got := &corev1.Pod{}
	if _, err := ours(t, twice, got, share, true), error(nil); err != nil {
		t.Fatal(err)
	}
	want := &corev1.Pod{}
	if err := want.Unmarshal(twice); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("merged spec differs from the reference\n%s", diff(want, got))
	}
	if !reflect.DeepEqual(first, before) {
		t.Fatalf("the object whose spec was reused changed\n%s", diff(before, first))
	}
}
