package decoders

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

var validateCases = []string{
	``, ` `, `{}`, `[]`, `null`, `nul`, `nulll`, `true`, `false`, `tru`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1E-7`,
	`-1.5e+300`, `"a"`, `"`, `"\u12"`, `"\u123g"`, `"\ud800"`, `"\'"`, `"\x"`, "\"\x01\"", "\"\x7f\"", "\"\xff\"",
	`{"a":1,}`, `{"a":1 "b":2}`, `{"a" 1}`, `{1:2}`, `[1,]`, `[,1]`, `[1 2]`, `{"a":[{"b":null}]}`, ` [ 1 , 2 ] `,
	`{} x`, `{}}`, `[[]`, "\"tab\there\"", `"\/\b\f\n\r\t\\\""`, `{"a":"b"}` + "\x00",
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	`{"a":"0123456789abcdef0123456789\"abcdef"}`, `"` + strings.Repeat("x", 17) + "\x1f" + `"`,
}

func TestValidateMatchesEncodingJSON(t *testing.T) {
	for _, c := range validateCases {
		if got, want := Validate([]byte(c)) == nil, json.Valid([]byte(c)); got != want {
			t.Errorf("Validate(%.40q) valid = %v, encoding/json says %v", c, got, want)
		}
	}
}

func FuzzValidate(f *testing.F) {
	for _, c := range validateCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Validate(data) == nil, json.Valid(data); got != want {
			t.Fatalf("Validate(%q) valid = %v, encoding/json says %v", data, got, want)
		}
	})
}

// TestReserveSpans checks that the room reserveSpans makes holds a
// document's index without growing when the document has no brackets in
// its strings, stays within one span per minSpanBytes when it has many,
// and never changes what validation records.
func TestReserveSpans(t *testing.T) {
	pod, err := os.ReadFile("../../internal/jsondecode/testdata/pod.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		doc        string
		growthFree bool
	}{
		{"pod", string(pod), true},
		{"list", `{"items":[` + strings.Repeat(string(pod)+",", 20) + string(pod) + `]}`, true},
		{"brackets in a string", `{"a":"` + strings.Repeat("{[", 4096) + `","b":[{},[]]}`, true},
		{"dense containers", "[" + strings.Repeat("[],", 4096) + "{}]", false},
		{"scalar", `"x"`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.doc)
			var want []span
			if err := validate(data, &want); err != nil {
				t.Fatal(err)
			}
			var l Lexer
			l.reserveSpans(data)
			reserved := cap(l.spans)
			if reserved > len(data)/minSpanBytes {
				t.Errorf("reserved %d spans for %d bytes, more than one per %d", reserved, len(data), minSpanBytes)
			}
			if err := validate(data, &l.spans); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(l.spans, want) {
				t.Errorf("spans recorded in reserved room differ from those recorded from nil")
			}
			if c.growthFree && cap(l.spans) != reserved {
				t.Errorf("index grew from %d to %d spans; %d recorded", reserved, cap(l.spans), len(l.spans))
			}
		})
	}
}
