package decodeonce

import (
	"context"
	"testing"
)

func TestMarkNamesOneRequest(t *testing.T) {
	type request struct{ n int }
	a, b := &request{1}, &request{1}
	ctx := Mark(context.Background(), a)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		req  any
		want bool
	}{
		{"the marked request", ctx, a, true},
		{"an equal but different request", ctx, b, false},
		{"no request", ctx, nil, false},
		{"an unmarked context", context.Background(), a, false},
		{"a nil context", nil, a, false},
		{"a context derived from the marked one", context.WithValue(ctx, struct{}{}, 1), a, true},
		{"marked again for another request", Mark(ctx, b), a, false},
	} {
		if got := Marked(tc.ctx, tc.req); got != tc.want {
			t.Errorf("%s: Marked = %v, want %v", tc.name, got, tc.want)
		}
	}
}
