package consistencydetector

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func pods(rvs ...string) []*v1.Pod {
	var out []*v1.Pod
	for i, rv := range rvs {
		out = append(out, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", UID: types.UID("u" + string(rune('a'+i))), ResourceVersion: rv}})
	}
	return out
}

func listOf(ps []*v1.Pod) *v1.PodList {
	l := &v1.PodList{}
	for _, p := range ps {
		l.Items = append(l.Items, *p)
	}
	return l
}

func TestCheckDataConsistency(t *testing.T) {
	var requested metav1.ListOptions
	listFn := func(server []*v1.Pod) ListFunc[*v1.PodList] {
		return func(_ context.Context, opts metav1.ListOptions) (*v1.PodList, error) {
			requested = opts
			return listOf(server), nil
		}
	}
	received := pods("1", "2")
	// Consistent: no panic, and the list is an exact read at the version.
	CheckDataConsistency(context.Background(), "pods", "7", listFn(pods("1", "2")), nil, metav1.ListOptions{}, func() []*v1.Pod { return received })
	if requested.ResourceVersion != "7" || requested.ResourceVersionMatch != metav1.ResourceVersionMatchExact {
		t.Errorf("list options = %+v", requested)
	}

	func() {
		defer func() {
			if recover() == nil {
				t.Error("inconsistency not detected")
			}
		}()
		CheckDataConsistency(context.Background(), "pods", "7", listFn(pods("1", "3")), nil, metav1.ListOptions{}, func() []*v1.Pod { return received })
	}()

	// Skipped when no exact list can be formed.
	requested = metav1.ListOptions{}
	CheckDataConsistency(context.Background(), "pods", "0", listFn(nil), nil, metav1.ListOptions{}, func() []*v1.Pod { return received })
	if requested.ResourceVersion != "" {
		t.Error("check ran for resource version 0")
	}
}

func TestEnabledToggle(t *testing.T) {
	restore := SetDataConsistencyDetectionForWatchListEnabledForTest(true)
	if !IsDataConsistencyDetectionForWatchListEnabled() {
		t.Error("not enabled")
	}
	restore()
	restore = SetDataConsistencyDetectionForWatchListEnabledForTest(false)
	defer restore()
	if IsDataConsistencyDetectionForWatchListEnabled() {
		t.Error("not disabled")
	}
}
