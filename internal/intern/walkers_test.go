package intern

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"
)

// bigSharer returns a Sharer with tables large enough that the values of
// one filled object never evict each other.
func bigSharer() *Sharer {
	s := NewSharer(true)
	s.Strings = NewStrings(1<<20, 1<<20)
	s.Boxed = NewBoxedStrings(1<<10, 1<<10)
	s.Fields = NewBytes(1<<16, 1<<20)
	s.ResourceLists = newResourceLists(1 << 16)
	return s
}

// kept lists what the tables of s keep, sorted.
func kept(s *Sharer) []string {
	var out []string
	s.Strings.Each(func(v string) { out = append(out, "string "+v) })
	s.Fields.Each(func(v []byte) { out = append(out, "fields "+string(v)) })
	s.ResourceLists.Each(func(v corev1.ResourceList) { out = append(out, fmt.Sprintf("resources %v", v)) })
	sort.Strings(out)
	return out
}

// TestWalkersShareAsPlans fills objects of the types with hand-written
// walkers at random and shares each twice: with the walkers, and with the
// reflective plans alone. Both must keep the same values in their tables
// and leave equal objects, equal to the original: a field a walker forgets
// (one added to a type, say) fails here.
func TestWalkersShareAsPlans(t *testing.T) {
	objects := []struct {
		name string
		obj  func() runtime.Object
	}{
		{"pod", func() runtime.Object { return &corev1.Pod{} }},
		{"pod template", func() runtime.Object { return &corev1.PodTemplate{} }},
		{"deployment", func() runtime.Object { return &appsv1.Deployment{} }},
	}
	for _, tt := range objects {
		for seed := int64(0); seed < 12; seed++ {
			t.Run(fmt.Sprintf("%s/%d", tt.name, seed), func(t *testing.T) {
				obj := tt.obj()
				randfill.NewWithSeed(seed).NilChance(0.3).NumElements(1, 2).MaxDepth(12).Fill(obj)
				// Two values of one object may still evict each other: of
				// ~500 values, two share a set of slots in about one table
				// in four, and take the same slot half the time; tables with
				// other seeds do not repeat that, a forgotten field does.
				// Eight tries make a chance eviction failing every one
				// negligible (about 1e-5 per object).
				var got, want []string
				for try := 0; try < 8 && (try == 0 || !reflect.DeepEqual(got, want)); try++ {
					walked, reflected := obj.DeepCopyObject(), obj.DeepCopyObject()
					byWalkers, byPlans := bigSharer(), bigSharer()
					byWalkers.shareInPlace(walked)
					byPlans.shareWith(reflected, reflectivePlans)
					if !reflect.DeepEqual(walked, obj) || !reflect.DeepEqual(reflected, obj) {
						t.Fatal("sharing changed the object")
					}
					got, want = kept(byWalkers), kept(byPlans)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("walkers kept %d values, reflective plans %d; differences:\n%s", len(got), len(want), diff(got, want))
				}
				if len(want) < 20 {
					t.Errorf("the filled object has only %d shareable values", len(want))
				}
			})
		}
	}
}

// diff lists the values of sorted lists a and b that the other lacks.
func diff(a, b []string) string {
	in := func(list []string, v string) bool {
		i := sort.SearchStrings(list, v)
		return i < len(list) && list[i] == v
	}
	out := ""
	for _, v := range a {
		if !in(b, v) {
			out += "walkers only: " + v + "\n"
		}
	}
	for _, v := range b {
		if !in(a, v) {
			out += "plans only: " + v + "\n"
		}
	}
	return out
}

// TestRestPlansRefuseUnknownFields: naming a field a type lacks is a
// programming error caught as the package loads.
func TestRestPlansRefuseUnknownFields(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("restPlan accepted a field that does not exist")
		}
	}()
	restPlan[corev1.Pod]("NoSuchField")
}
