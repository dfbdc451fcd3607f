package wire

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// TestTemplatedMapIsAClone: in a large decode, a map of quantities met
// again with the same bytes is a clone of the template kept from the
// first one, and small decodes keep no templates.
func TestTemplatedMapIsAClone(t *testing.T) {
	defer fastpath.DecodeSlabs.Set(true)() // templates live in the slab
	entries := cat(
		field(1, cat(field(1, []byte("cpu")), field(2, field(1, []byte("1"))))),
		field(1, cat(field(1, []byte("memory")), field(2, field(1, []byte("1Gi"))))),
	)
	want := map[string]resource.Quantity{"cpu": resource.MustParse("1"), "memory": resource.MustParse("1Gi")}
	// decode decodes the map at the start of r's message, entry by entry
	// as the generated decoders do.
	decode := func(t *testing.T, r *Reader) map[string]resource.Quantity {
		t.Helper()
		r.i = 0
		var m map[string]resource.Quantity
		for r.i < len(entries) {
			_, typ, err := r.Key()
			if err != nil {
				t.Fatal(err)
			}
			if err := MessageMap(r, typ, 1, &m, Quantity); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	tests := []struct {
		name      string
		padding   int
		templated bool
	}{
		{"small message", 1 << 10, false},
		{"large message", minRecentMessage, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(cat(entries, field(3, make([]byte, tt.padding)))).WithSlab()
			first := decode(t, &r)
			if !reflect.DeepEqual(first, want) {
				t.Fatalf("first map = %v, want %v", first, want)
			}
			var template map[string]resource.Quantity
			if r.slab.maps != nil {
				for _, s := range r.slab.maps {
					if m, ok := s.m.(map[string]resource.Quantity); ok {
						template = m
					}
				}
			}
			if (template != nil) != tt.templated {
				t.Fatalf("template kept: %v, want %v", template != nil, tt.templated)
			}
			if template == nil {
				return
			}
			template["mark"] = resource.MustParse("7") // shows where the next map comes from
			second := decode(t, &r)
			if _, ok := second["mark"]; !ok || len(second) != 3 {
				t.Errorf("second map = %v: not a clone of the template", second)
			}
			second["cpu"] = resource.MustParse("9")
			if !reflect.DeepEqual(first, want) || template["cpu"] != want["cpu"] {
				t.Error("writing into the second map changed the first or the template")
			}
		})
	}
}
