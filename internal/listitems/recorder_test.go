package listitems

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// decodedList is what a decoder makes of a list of n pods with a
// Recorder: an allocation per item, and the list holding copies of them.
func decodedList(n int) (*corev1.PodList, []runtime.Object) {
	list := &corev1.PodList{}
	var items []runtime.Object
	for i := range n {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", i), Labels: map[string]string{"i": fmt.Sprint(i)}}}
		list.Items = append(list.Items, *p)
		items = append(items, p)
	}
	return list, items
}

// TestExtract records the items of a decoded list and extracts them after
// the ListerWatcher did something, or nothing, to the list: each item
// extracted equals the list's, and is the recorded allocation exactly
// when the list's item is still a copy of it.
func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		// record says whether the decoder recorded the list.
		record bool
		// change is what the ListerWatcher does to the list it returns.
		change func(*corev1.PodList) runtime.Object
		// recorded lists the items extracted as the recorded allocations.
		recorded []bool
	}{
		{"nothing recorded", false, nil, []bool{false, false, false}},
		{"unchanged", true, nil, []bool{true, true, true}},
		{"an item's field replaced", true, func(l *corev1.PodList) runtime.Object {
			l.Items[1].Labels = map[string]string{"changed": "yes"}
			return l
		}, []bool{true, false, true}},
		{"items moved to a new array", true, func(l *corev1.PodList) runtime.Object {
			l.Items = append([]corev1.Pod(nil), l.Items...)
			return l
		}, []bool{true, true, true}},
		{"an item dropped", true, func(l *corev1.PodList) runtime.Object {
			l.Items = append(l.Items[:0], l.Items[1:]...)
			return l
		}, []bool{false, false}},
		{"the last item dropped", true, func(l *corev1.PodList) runtime.Object {
			l.Items = l.Items[:2]
			return l
		}, []bool{true, true}},
		{"another list returned", true, func(l *corev1.PodList) runtime.Object {
			return l.DeepCopy()
		}, []bool{false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, items := decodedList(3)
			r := new(Recorder)
			if tt.record {
				r.Record(list, items)
			}
			var returned runtime.Object = list
			if tt.change != nil {
				returned = tt.change(list)
			}
			got, err := r.Extract(returned)
			if err != nil {
				t.Fatal(err)
			}
			want := returned.(*corev1.PodList).Items
			if len(got) != len(want) || len(got) != len(tt.recorded) {
				t.Fatalf("extracted %d items from a list of %d, want %d", len(got), len(want), len(tt.recorded))
			}
			for i, obj := range got {
				if !reflect.DeepEqual(obj, &want[i]) {
					t.Errorf("item %d = %v, want %v", i, obj, &want[i])
				}
				if obj == runtime.Object(&want[i]) {
					t.Errorf("item %d is the list's own element, want an allocation of its own", i)
				}
				isRecorded := false
				for _, rec := range items {
					isRecorded = isRecorded || obj == rec
				}
				if isRecorded != tt.recorded[i] {
					t.Errorf("item %d is a recorded allocation: %v, want %v", i, isRecorded, tt.recorded[i])
				}
			}
			// A list is extracted from its record once.
			again, err := r.Extract(returned)
			if err != nil {
				t.Fatal(err)
			}
			for i := range again {
				if again[i] == got[i] {
					t.Errorf("item %d extracted twice as the same allocation", i)
				}
			}
		})
	}
}

// TestNilRecorder extracts as meta.ExtractListWithAlloc with no Recorder,
// and a context without one yields none.
func TestNilRecorder(t *testing.T) {
	var r *Recorder
	list, items := decodedList(2)
	r.Record(list, items)
	got, err := r.Extract(list)
	if err != nil || len(got) != 2 || got[0] == items[0] || !reflect.DeepEqual(got[0], items[0]) {
		t.Fatalf("Extract = %v, %v; want copies of the items", got, err)
	}
	if FromContext(context.Background()) != nil {
		t.Error("a context without a Recorder yields one")
	}
	rec := new(Recorder)
	if FromContext(NewContext(context.Background(), rec)) != rec {
		t.Error("NewContext's Recorder is not returned")
	}
}
