package protodecode

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/protodecode/wire"
)

// sharingPod is a pod with a managed-fields set and limits and requests,
// named name.
func sharingPod(name string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: map[string]string{"app": "web", "tier": "front"},
			ManagedFields: []metav1.ManagedFieldsEntry{{
				Manager:  "kubectl",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:containers":{}}}`)},
			}},
		},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "app",
			Resources: corev1.ResourceRequirements{
				Limits:   corev1.ResourceList{"cpu": resource.MustParse("500m"), "memory": resource.MustParse("128Mi")},
				Requests: corev1.ResourceList{"cpu": resource.MustParse("100m")},
			},
		}}},
	}
}

func marshalPod(t *testing.T, p *corev1.Pod) []byte {
	t.Helper()
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeSharing decodes b into a new pod with share, checking it against
// the reference.
func decodeSharing(t *testing.T, b []byte, share *intern.DecodeSharing) *corev1.Pod {
	t.Helper()
	want, got := &corev1.Pod{}, &corev1.Pod{}
	if err := want.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if handled, err := IntoSharing(b, got, share, true); !handled || err != nil {
		t.Fatalf("IntoSharing: handled %v, %v", handled, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded pod differs from the reference\n%s", diff(want, got))
	}
	return got
}

func sameBytes(a, b []byte) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

func sameMap[M ~map[K]V, K comparable, V any](a, b M) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func TestIntoSharingSharesEqualValues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		share *intern.DecodeSharing
		want  bool
	}{
		{"no sharing", nil, false},
		{"sharing", intern.NewDecodeSharing(intern.NewBytes(16, 1<<10)), true},
		{"lists only", intern.NewDecodeSharing(nil), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := decodeSharing(t, marshalPod(t, sharingPod("a")), tc.share)
			b := decodeSharing(t, marshalPod(t, sharingPod("b")), tc.share)
			fa, fb := a.ManagedFields[0].FieldsV1.Raw, b.ManagedFields[0].FieldsV1.Raw
			wantFields := tc.want && tc.name != "lists only"
			if got := sameBytes(fa, fb); got != wantFields {
				t.Errorf("FieldsV1 shared: %v, want %v", got, wantFields)
			}
			ra, rb := a.Spec.Containers[0].Resources, b.Spec.Containers[0].Resources
			if got := sameMap(ra.Limits, rb.Limits); got != tc.want {
				t.Errorf("limits shared: %v, want %v", got, tc.want)
			}
			if got := sameMap(ra.Requests, rb.Requests); got != tc.want {
				t.Errorf("requests shared: %v, want %v", got, tc.want)
			}
			if sameMap(ra.Limits, rb.Requests) {
				t.Error("limits and requests decode to one map")
			}
			if got := sameMap(a.Labels, b.Labels); got != tc.want {
				t.Errorf("labels shared: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestIntoSharingSplitMap: a map whose entries are not in one run of
// fields (the encoder never writes that, the reference accepts it) decodes
// as the reference decodes it, unshared.
func TestIntoSharingSplitMap(t *testing.T) {
	// ResourceRequirements: limits entry, requests entry, limits entry.
	limits := func(name, value string) []byte {
		q := append([]byte{0x0a, byte(len(value))}, value...)
		e := append([]byte{0x0a, byte(len(name))}, name...)
		e = append(e, 0x12, byte(len(q)))
		e = append(e, q...)
		return e
	}
	field := func(num byte, entry []byte) []byte {
		return append([]byte{num<<3 | 2, byte(len(entry))}, entry...)
	}
	var msg []byte
	msg = append(msg, field(1, limits("cpu", "1"))...)
	msg = append(msg, field(2, limits("cpu", "2"))...)
	msg = append(msg, field(1, limits("memory", "1Gi"))...)
	share := intern.NewDecodeSharing(nil)
	var first corev1.ResourceList
	for i := 0; i < 2; i++ {
		want, got := &corev1.ResourceRequirements{}, &corev1.ResourceRequirements{}
		if err := want.Unmarshal(msg); err != nil {
			t.Fatal(err)
		}
		if err := decodeCorev1ResourceRequirements(wire.NewSharingReader(msg, share), got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %v, reference %v", got, want)
		}
		if len(got.Limits) != 2 {
			t.Fatalf("limits %v, want both entries", got.Limits)
		}
		if i == 1 && sameMap(first, got.Limits) {
			t.Error("a split map was shared")
		}
		first = got.Limits
	}
}

// TestIntoSharingNeverMergesIntoSharedMaps decodes pods whose labels are
// shared, then pods that name their labels again (a second metadata
// message, or a second run of entries): those decode as the reference
// does, and no pod decoded before, nor the next pod decoded from the
// first's bytes, changes.
func TestIntoSharingNeverMergesIntoSharedMaps(t *testing.T) {
	share := intern.NewDecodeSharing(intern.NewBytes(16, 1<<10))
	clean := sharingPod("a")
	cleanData := marshalPod(t, clean)
	extra := &corev1.Pod{}
	extra.Labels = map[string]string{"evil": "1"}
	extraData := marshalPod(t, extra)
	// A second ObjectMeta (field 1) appended: the reference merges it.
	twice := append(append([]byte{}, cleanData...), extraData...)
	decode := func(data []byte) *corev1.Pod {
		t.Helper()
		pod := &corev1.Pod{}
		handled, err := IntoSharing(data, pod, share, true)
		if !handled {
			t.Fatal("not handled")
		}
		if err != nil {
			pod = &corev1.Pod{}
			if err := pod.Unmarshal(data); err != nil {
				t.Fatal(err)
			}
		}
		return pod
	}
	first := decode(cleanData)
	second := decode(cleanData)
	if !sameMap(first.Labels, second.Labels) {
		t.Fatal("equal labels are not shared: the test shows nothing")
	}
	merged := decode(twice)
	want := &corev1.Pod{}
	if err := want.Unmarshal(twice); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(merged, want) {
		t.Errorf("merged pod %v, reference %v", merged.Labels, want.Labels)
	}
	for name, p := range map[string]*corev1.Pod{"first": first, "second": second, "next": decode(cleanData)} {
		if !reflect.DeepEqual(p.Labels, clean.Labels) {
			t.Errorf("%s pod's labels became %v", name, p.Labels)
		}
	}
}
