package sharding

import (
	"slices"
	"testing"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestSlotsFormat(t *testing.T) {
	tests := []struct {
		slots []int
		text  string
	}{
		{nil, ""},
		{[]int{0}, "0"},
		{[]int{0, 1, 2, 3, 7, 9, 10}, "0-3,7,9-10"},
		{[]int{5, 63}, "5,63"},
	}
	for _, tc := range tests {
		if got := formatSlots(tc.slots); got != tc.text {
			t.Errorf("formatSlots(%v) = %q, want %q", tc.slots, got, tc.text)
		}
		back, err := parseSlots(tc.text, 64)
		if err != nil || !slices.Equal(back, tc.slots) {
			t.Errorf("parseSlots(%q) = %v, %v", tc.text, back, err)
		}
	}
	for _, bad := range []string{"64", "-1", "3-1", "a", "1,", "0-99999999999", "1-x"} {
		if got, err := parseSlots(bad, 64); err == nil {
			t.Errorf("parseSlots(%q) = %v, want an error", bad, got)
		}
	}
}

// TestObserveUnreadableLease checks that a Lease written by someone else
// with unreadable annotations counts as claiming everything, never panics.
func TestObserveUnreadableLease(t *testing.T) {
	id := "x"
	for _, ann := range []map[string]string{
		nil,
		{SlotsAnnotation: "zero"},
		{SlotsAnnotation: "-4"},
		{SlotsAnnotation: "64", ClaimsAnnotation: "0-999"},
		{SlotsAnnotation: "64", ClaimsAnnotation: "garbage"},
	} {
		o := observe(&coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Annotations: ann}, Spec: coordinationv1.LeaseSpec{HolderIdentity: &id}})
		if !o.bad {
			t.Errorf("annotations %v read as good: %+v", ann, o)
		}
	}
}
