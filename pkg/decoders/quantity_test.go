package decoders

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

func TestQuantityMatchesUnmarshalJSON(t *testing.T) {
	for _, raw := range []string{`"250m"`, `"1Gi"`, `"1.5"`, `2`, `"12345678901234567890123"`, `"0.000000000001"`, `"bad"`, `null`, `"1e3"`, `" 1 "`, `true`, `{}`} {
		for round := range 2 { // the second round hits the cache
			start := resource.MustParse("7Ki")
			want, got := start, start
			wantErr := want.UnmarshalJSON([]byte(raw))
			gotErr := Quantity(newLexer([]byte(raw), nil), &got)
			if (wantErr == nil) != (gotErr == nil) || !reflect.DeepEqual(want, got) {
				t.Fatalf("round %d %s: got %#v (%v), want %#v (%v)", round, raw, got, gotErr, want, wantErr)
			}
		}
	}
	if int64Backed(resource.MustParse("12345678901234567890123")) {
		t.Fatal("a big-decimal quantity reported as int64-backed")
	}
	if !int64Backed(resource.MustParse("250m")) {
		t.Fatal("250m reported as not int64-backed")
	}
}
