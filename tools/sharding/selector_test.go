package sharding

import (
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestHashIsFNV1a64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	inputs := []string{"", "a", "default", "kube-system", "0b8f4e0e-57a5-4a6e-9d0e-1f0f1a4c2b7d"}
	for range 200 {
		b := make([]byte, rng.IntN(64))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		h := fnv.New64a()
		h.Write([]byte(in))
		if got, want := Hash(in), h.Sum64(); got != want {
			t.Fatalf("Hash(%q) = %#x, want %#x", in, got, want)
		}
	}
}

func TestSelectorMatches(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", UID: types.UID("uid-1")}}
	hu, hn := Hash("uid-1"), Hash("team-a")
	tests := []struct {
		name string
		sel  Selector
		want bool
	}{
		{"uid inside", Selector{Key: KeyUID, Ranges: []Range{{Start: hu, End: hu + 1}}}, true},
		{"uid end excluded", Selector{Key: KeyUID, Ranges: []Range{{Start: hu - 1, End: hu}}}, false},
		{"uid second range", Selector{Key: KeyUID, Ranges: []Range{{Start: 0, End: 1}, {Start: hu}}}, true},
		{"namespace", Selector{Key: KeyNamespace, Ranges: []Range{{Start: hn, End: hn + 1}}}, true},
		{"empty selects nothing", Selector{Key: KeyUID}, false},
		{"whole space", Selector{Key: KeyUID, Ranges: []Range{{}}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.sel.Matches(cm)
			if err != nil || got != tc.want {
				t.Errorf("Matches = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	if _, err := (Selector{Key: "object.metadata.name", Ranges: []Range{{}}}).Matches(cm); err == nil {
		t.Errorf("unsupported key matched")
	}
	if _, err := (Selector{Key: KeyUID, Ranges: []Range{{}}}).Matches(42); err == nil {
		t.Errorf("object without metadata matched")
	}
}

func TestParseSelector(t *testing.T) {
	tests := []struct {
		in      string
		want    string // String() of the result; "" means an error
		errPart string
	}{
		{in: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')",
			want: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"},
		{in: ` shardRange( object.metadata.namespace ,"0x8000000000000000","0x10000000000000000" )||shardRange(object.metadata.namespace, '0x0000000000000000', '0x0000000000000001') `,
			want: "shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000') || shardRange(object.metadata.namespace, '0x0000000000000000', '0x0000000000000001')"},
		{in: "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')", errPart: "16-digit"},
		{in: "shardRange(object.metadata.uid, '0x00000000000000000', '0x8000000000000000')", errPart: "16-digit"},
		{in: "shardRange(object.metadata.uid, '0x000000000000000G', '0x8000000000000000')", errPart: "invalid hex"},
		{in: "shardRange(object.metadata.uid, '0x000000000000000A', '0x8000000000000000')", errPart: "invalid hex"},
		{in: "shardRange(object.metadata.uid, '0000000000000000', '0x8000000000000000')", errPart: "0x-prefixed"},
		{in: "shardRange(object.metadata.uid, '0x8000000000000000', '0x8000000000000000')", errPart: "less than"},
		{in: "shardRange(object.metadata.uid, '0x10000000000000000', '0x10000000000000000')", errPart: "less than"},
		{in: "shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')", errPart: "unsupported field"},
		{in: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.namespace, '0x0000000000000000', '0x8000000000000000')", errPart: "same field"},
		{in: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') &&", errPart: "expected ||"},
		{in: "", errPart: "expected shardRange"},
		{in: "shardRange(object.metadata.uid, '0x0000000000000000', 0x8000000000000000)", errPart: "string literal"},
		{in: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000'", errPart: "expected )"},
	}
	for _, tc := range tests {
		got, err := ParseSelector(tc.in)
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), tc.errPart) {
				t.Errorf("ParseSelector(%q) = %v, %v; want an error with %q", tc.in, got, err, tc.errPart)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("ParseSelector(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestApplyTo(t *testing.T) {
	var opts metav1.ListOptions
	if err := (Selector{Key: KeyUID}).ApplyTo(&opts); err == nil || opts.ShardSelector != "" {
		t.Errorf("empty selector applied: %q, %v", opts.ShardSelector, err)
	}
	sel := SlotsSelector(KeyUID, []int{3}, 4)
	if err := sel.ApplyTo(&opts); err != nil || opts.ShardSelector != sel.String() {
		t.Errorf("ApplyTo: %q, %v", opts.ShardSelector, err)
	}
	back, err := ParseSelector(opts.ShardSelector)
	if err != nil || back.String() != sel.String() {
		t.Errorf("round trip: %q, %v", back, err)
	}
}
