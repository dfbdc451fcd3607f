package decoders

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// referenceMalformed reports whether encoding/json's stream decoder, the
// one a JSON watch stream is framed with, fails on data with a syntax
// error rather than waiting for more input.
func referenceMalformed(data []byte) bool {
	var raw json.RawMessage
	err := json.NewDecoder(bytes.NewReader(data)).Decode(&raw)
	var syntax *json.SyntaxError
	return errors.As(err, &syntax)
}

func TestMalformedTable(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{``, false},
		{`{`, false},
		{` { "a" : [1, 2.5e3, -0, true, false, null, "x\u00e9\n"] } `, false},
		{`{"a"`, false},
		{`{"a":`, false},
		{`{"a":1`, false},
		{`{"a":-`, false},
		{`{"a":1.`, false},
		{`{"a":1e`, false},
		{`{"a":1e+`, false},
		{`{"a":tr`, false},
		{`{"a":"\u12`, false},
		{`{"a":"\`, false},
		{`[1,`, false},
		{`nul`, false},
		{`{} x`, false},
		{`{"a":01}`, true},
		{`{"a":1.}`, true},
		{`{"a":+1}`, true},
		{`{"a":.5}`, true},
		{`{"a":1e}`, true},
		{`{"a":tru}`, true},
		{`{"a":"\x"}`, true},
		{`{"a":"\u12g4"}`, true},
		{"{\"a\":\"\x01\"}", true},
		{`{a:1}`, true},
		{`{"a" 1}`, true},
		{`{"a":1,}`, true},
		{`[1,]`, true},
		{`[1 2]`, true},
		{`{"a":1]`, true},
		{`[1}`, true},
		{`}`, true},
		{`nulL`, true},
		{`{"a":nx`, true},
		{strings.Repeat("[", 10001), true},
		{strings.Repeat("[", 10000), false},
	} {
		if got := Malformed([]byte(tc.in)); got != tc.want {
			t.Errorf("Malformed(%.40q) = %v, want %v", tc.in, got, tc.want)
		}
		if ref := referenceMalformed([]byte(tc.in)); ref != tc.want {
			t.Errorf("encoding/json's stream decoder on %.40q: malformed %v, table says %v", tc.in, ref, tc.want)
		}
	}
}

// TestMalformedMatchesReference checks random documents, mutations of them
// and every prefix of some, against encoding/json's stream decoder.
func TestMalformedMatchesReference(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := range 5000 {
		data := []byte(randomDocument(r, 2))
		cuts := []int{len(data), r.Intn(len(data) + 1)}
		if i%50 == 0 {
			cuts = cuts[:0]
			for cut := range len(data) + 1 {
				cuts = append(cuts, cut)
			}
		}
		for _, cut := range cuts {
			if got, want := Malformed(data[:cut]), referenceMalformed(data[:cut]); got != want {
				t.Fatalf("Malformed(%q) = %v, encoding/json's stream decoder says %v", data[:cut], got, want)
			}
		}
	}
}

func FuzzMalformed(f *testing.F) {
	f.Add([]byte(`{"a":[1,"b",{"c":null}]}`))
	f.Add([]byte(`{"a":1e`))
	f.Add([]byte(`[1e5, -0.5, "\u00e9"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Malformed(data), referenceMalformed(data); got != want {
			t.Fatalf("Malformed(%q) = %v, encoding/json's stream decoder says %v", data, got, want)
		}
	})
}
