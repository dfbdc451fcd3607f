// Package apifill fills API objects with random values chosen to reach a
// decoder's edge cases. It is imported by the differential tests of the
// generated decoders (internal/jsondecode, internal/protodecode) only.
package apifill

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// NewFiller returns a filler that sets every field, with values chosen to
// reach the decoders' edge cases: unicode and escapes in strings, empty and
// nil collections, extreme integers, quantities in every format, times,
// raw extensions and int-or-strings of both kinds.
func NewFiller(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.25).NumElements(0, 3).MaxDepth(12).Funcs(
		func(s *string, c randfill.Continue) { *s = randomString(c.Rand) },
		func(n *int64, c randfill.Continue) {
			*n = pick(c.Rand, []int64{0, 1, -1, math.MaxInt64, math.MinInt64, c.Int63()})
		},
		func(n *int32, c randfill.Continue) {
			*n = pick(c.Rand, []int32{0, 7, -7, math.MaxInt32, math.MinInt32, c.Int31()})
		},
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(pick(c.Rand, []string{"0", "1", "250m", "1.5Gi", "512Mi", "100k", "1e3", "12345678901234567", "0.000001", "-2", "1E", "9Ti"}))
		},
		func(t *metav1.Time, c randfill.Continue) {
			if c.Intn(5) == 0 {
				*t = metav1.Time{}
				return
			}
			*t = metav1.Unix(c.Int63n(4e9), 0)
		},
		func(t *metav1.MicroTime, c randfill.Continue) {
			*t = metav1.NewMicroTime(metav1.Unix(c.Int63n(4e9), c.Int63n(1e9)).Time)
		},
		func(d *metav1.Duration, c randfill.Continue) { d.Duration = time.Duration(c.Int63n(1e15)) },
		func(x *intstr.IntOrString, c randfill.Continue) {
			if c.Intn(2) == 0 {
				*x = intstr.FromInt32(c.Int31())
			} else {
				*x = intstr.FromString(randomString(c.Rand))
			}
		},
		func(r *runtime.RawExtension, c randfill.Continue) {
			r.Raw = []byte(pick(c.Rand, []string{`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}`, `[1,2,{"a":null}]`, `"s"`, `{}`}))
		},
		func(f *metav1.FieldsV1, c randfill.Continue) {
			f.Raw = []byte(pick(c.Rand, []string{`{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`, `{}`, `{"k:{\"name\":\"c\"}":{".":{}}}`}))
		},
		func(cells *[]any, c randfill.Continue) {
			*cells = []any{"a", int64(c.Int63()), 1.5, true, nil, map[string]any{"k": []any{"v"}}}
		},
	)
}

func pick[T any](r *rand.Rand, from []T) T { return from[r.Intn(len(from))] }

// randomString returns ASCII, unicode (including characters JSON escapes
// and supplementary planes), empty, or long strings.
func randomString(r *rand.Rand) string {
	switch r.Intn(8) {
	case 0:
		return ""
	case 1:
		return pick(r, []string{"héllo wörld", "日本語", "emoji 😀 \U0001F680", "<tag>&\"quoted\"\\", "tab\tnew\nline\r\x01\x1f", "\u2028\u2029", "\ufffd"})
	case 2:
		return strings.Repeat("long-value-", 20+r.Intn(20))
	case 3:
		return fmt.Sprintf("%d", r.Int63())
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-./"
	b := make([]byte, 1+r.Intn(20))
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}
