package protodecode

import (
	"bytes"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// TestMapTemplates decodes lists large enough for their resource lists to
// be cloned from the first one met with the same bytes (wire.templated):
// each must equal the reference's, and be each object's own, whatever is
// written through another object afterwards.
func TestMapTemplates(t *testing.T) {
	defer fastpath.DecodeSlabs.Set(true)() // templates live in the slab
	quantity := func(s string) []byte { return lenField(1, []byte(s)) }
	entry := func(num int, k, v string) []byte {
		return lenField(num, cat(lenField(1, []byte(k)), lenField(2, quantity(v))))
	}
	pod := func(name string, resources []byte) []byte {
		container := lenField(2, cat(lenField(1, []byte("c")), lenField(8, resources)))
		return lenField(2, cat(lenField(1, lenField(1, []byte(name))), lenField(2, container)))
	}
	// padding makes a list large enough for templates.
	padding := pod(string(bytes.Repeat([]byte{'p'}, 70<<10)), nil)
	list := func(pods ...[]byte) []byte { return cat(append(pods, padding)...) }
	limits := func(kv ...string) []byte {
		var b []byte
		for i := 0; i < len(kv); i += 2 {
			b = append(b, entry(1, kv[i], kv[i+1])...)
		}
		return b
	}
	cpu := limits("cpu", "1", "memory", "1Gi")
	decimal := limits("cpu", "1.00000000000000000000001") // held in an inf.Dec
	overrun := lenField(1, cat(key(1, 2), []byte{5}, []byte("cpu")))

	tests := []struct {
		name    string
		data    []byte
		through int                 // the item written through
		write   func(p *corev1.Pod) // after the decode
	}{
		{
			name:    "equal lists are distinct maps",
			data:    list(pod("a", cpu), pod("b", cpu), pod("c", cpu)),
			through: 1, // a clone of the template, as item 2's
			write:   func(p *corev1.Pod) { p.Spec.Containers[0].Resources.Limits["cpu"] = resource.MustParse("9") },
		},
		{
			name: "quantities in an inf.Dec are not shared",
			data: list(pod("a", decimal), pod("b", decimal)),
			write: func(p *corev1.Pod) {
				q := p.Spec.Containers[0].Resources.Limits["cpu"]
				q.Add(resource.MustParse("5")) // adds into the inf.Dec q shares with the map's value
			},
		},
		{
			name:  "entries merged later stay out of the template",
			data:  list(pod("a", cat(cpu, entry(2, "cpu", "1"), limits("pods", "3"))), pod("b", cpu)),
			write: func(p *corev1.Pod) { delete(p.Spec.Containers[0].Resources.Limits, "pods") },
		},
		{
			name: "entries reading past their end are not templates",
			// The entry's key claims two bytes more than the entry
			// holds: the reference reads them from the field after it,
			// the requests' entry, whose length differs in each pod.
			data: list(
				pod("a", cat(overrun, entry(2, "cpu", "1"))),
				pod("b", cat(overrun, entry(2, "cpu", "100m"))),
			),
			write: func(*corev1.Pod) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want corev1.PodList
			wantErr := want.Unmarshal(tt.data)
			var got corev1.PodList
			handled, err := Into(tt.data, &got)
			if !handled {
				t.Fatal("not handled")
			}
			if wantErr != nil || err != nil {
				if err == nil {
					t.Fatalf("decoded input the reference rejects (%v)", wantErr)
				}
				return // left to the reference, as it should
			}
			if !reflect.DeepEqual(&got, &want) {
				t.Fatalf("decoded list differs from the reference's\n%s", diff(&want, &got))
			}
			tt.write(&got.Items[tt.through])
			for i := range got.Items {
				if i != tt.through && !reflect.DeepEqual(got.Items[i], want.Items[i]) {
					t.Errorf("writing through item %d changed item %d", tt.through, i)
				}
			}
		})
	}
}
