package jsondecode

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/internal/intern"
)

// sharingPod is a pod named name with labels, a managed-fields set, and
// limits and requests.
func sharingPod(name string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: labels,
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

// decodeSharingPod decodes p's JSON into a new pod sharing with share,
// checking it against the reference.
func decodeSharingPod(t *testing.T, p *corev1.Pod, share *intern.DecodeSharing) *corev1.Pod {
	t.Helper()
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want, got := &corev1.Pod{}, &corev1.Pod{}
	if err := reference(data, want); err != nil {
		t.Fatal(err)
	}
	if err := viaIntoSharing(t, data, got, share); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded pod differs from the reference at %s", firstDiff("", reflect.ValueOf(got), reflect.ValueOf(want)))
	}
	return got
}

func sameMap[M ~map[K]V, K comparable, V any](a, b M) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// TestIntoSharingSharesEqualMaps decodes pods whose labels and resource
// lists are equal, or not, with and without decode-time sharing.
func TestIntoSharingSharesEqualMaps(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "front"}
	long := map[string]string{"app": strings.Repeat("x", 2000)}
	for _, tc := range []struct {
		name         string
		share        *intern.DecodeSharing
		labelsA      map[string]string
		labelsB      map[string]string
		wantLabels   bool
		wantResource bool
	}{
		{"no sharing", nil, labels, labels, false, false},
		{"sharing", intern.NewDecodeSharing(intern.NewBytes(16, 1<<10)), labels, labels, true, true},
		{"lists only", intern.NewDecodeSharing(nil), labels, labels, true, true},
		{"different labels", intern.NewDecodeSharing(nil), labels, map[string]string{"app": "db"}, false, true},
		{"labels too long to share", intern.NewDecodeSharing(nil), long, long, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := decodeSharingPod(t, sharingPod("a", tc.labelsA), tc.share)
			b := decodeSharingPod(t, sharingPod("b", tc.labelsB), tc.share)
			if got := sameMap(a.Labels, b.Labels); got != tc.wantLabels {
				t.Errorf("labels shared: %v, want %v", got, tc.wantLabels)
			}
			ra, rb := a.Spec.Containers[0].Resources, b.Spec.Containers[0].Resources
			if got := sameMap(ra.Limits, rb.Limits); got != tc.wantResource {
				t.Errorf("limits shared: %v, want %v", got, tc.wantResource)
			}
			if got := sameMap(ra.Requests, rb.Requests); got != tc.wantResource {
				t.Errorf("requests shared: %v, want %v", got, tc.wantResource)
			}
			if sameMap(ra.Limits, rb.Requests) {
				t.Error("limits and requests decode to one map")
			}
		})
	}
}

// TestSharingNeverMergesIntoSharedMaps decodes, with one DecodeSharing, a
// pod with clean labels, pods that name their labels again (a duplicate
// "labels" key, a second "metadata", a duplicate resource list), then the
// clean pod again: each decodes as the reference does, and the clean pods
// keep their labels, whatever was decoded in between.
func TestSharingNeverMergesIntoSharedMaps(t *testing.T) {
	share := intern.NewDecodeSharing(intern.NewBytes(16, 1<<10))
	clean := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","labels":{"app":"x"}},` +
		`"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}}`
	dirty := map[string]string{
		"duplicate labels":   `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","labels":{"app":"x"},"labels":{"evil":"1"}}}`,
		"second metadata":    `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"c","labels":{"app":"x"}},"metadata":{"labels":{"evil-metadata":"1"}}}`,
		"duplicate limits":   `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"d"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"},"limits":{"memory":"1Gi"}}}]}}`,
		"duplicate resource": `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"e"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}},"resources":{"limits":{"memory":"1Gi"}}}]}}`,
	}
	decode := func(doc string) *corev1.Pod {
		t.Helper()
		want, got := &corev1.Pod{}, &corev1.Pod{}
		if err := reference([]byte(doc), want); err != nil {
			t.Fatal(err)
		}
		if err := viaIntoSharing(t, []byte(doc), got, share); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: decoded %v, reference %v", doc, got.Labels, want.Labels)
		}
		return got
	}
	first := decode(clean)
	second := decode(clean)
	if !sameMap(first.Labels, second.Labels) {
		t.Fatal("equal labels are not shared: the test shows nothing")
	}
	for name, doc := range dirty {
		decode(doc)
		for which, p := range map[string]*corev1.Pod{"first": first, "second": second, "next": decode(clean)} {
			if !reflect.DeepEqual(p.Labels, map[string]string{"app": "x"}) {
				t.Errorf("after %s: %s pod's labels became %v", name, which, p.Labels)
			}
			if l := p.Spec.Containers[0].Resources.Limits; len(l) != 1 {
				t.Errorf("after %s: %s pod's limits became %v", name, which, l)
			}
		}
	}
}
