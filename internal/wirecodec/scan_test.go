package wirecodec

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// scanWhole reports whether ScanValue accepts data as one JSON document.
func scanWhole(data []byte) bool {
	end, st := ScanValue(data, 0, 0)
	return st == Complete && skipSpace(data, end) == len(data)
}

func TestScanValueTable(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Status
	}{
		{`{}`, Complete},
		{` { "a" : [1, 2.5e3, -0, true, false, null, "x\u00e9\n"] } `, Complete},
		{`[]`, Complete},
		{`"\ud800"`, Complete},
		{"\"\xff\"", Complete},
		{`{`, Short},
		{`{"a"`, Short},
		{`{"a":`, Short},
		{`{"a":1`, Short},
		{`{"a":-`, Short},
		{`{"a":1.`, Short},
		{`{"a":1e`, Short},
		{`{"a":1e+`, Short},
		{`{"a":tr`, Short},
		{`{"a":"\u12`, Short},
		{`{"a":"\`, Short},
		{`[1,`, Short},
		{``, Short},
		{`{"a":01}`, Invalid},
		{`{"a":1.}`, Invalid},
		{`{"a":+1}`, Invalid},
		{`{"a":.5}`, Invalid},
		{`{"a":1e}`, Invalid},
		{`{"a":tru}`, Invalid},
		{`{"a":"\x"}`, Invalid},
		{`{"a":"\u12g4"}`, Invalid},
		{"{\"a\":\"\x01\"}", Invalid},
		{`{a:1}`, Invalid},
		{`{"a" 1}`, Invalid},
		{`{"a":1,}`, Invalid},
		{`[1,]`, Invalid},
		{`[1 2]`, Invalid},
		{`{"a":1]`, Invalid},
		{`[1}`, Invalid},
		{`}`, Invalid},
		{`nul`, Short},
		{`nulL`, Invalid},
	} {
		_, got := ScanValue([]byte(tc.in), 0, 0)
		if got != tc.want {
			t.Errorf("ScanValue(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestScanValueDepthLimit(t *testing.T) {
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		for _, open := range []string{"[", `{"a":`} {
			closeWith := "]"
			if open != "[" {
				closeWith = "}"
			}
			doc := []byte(strings.Repeat(open, depth) + "1" + strings.Repeat(closeWith, depth))
			if got, want := scanWhole(doc), json.Valid(doc); got != want {
				t.Errorf("depth %d of %q: accepted %v, encoding/json %v", depth, open, got, want)
			}
		}
	}
}

// TestScanValueMatchesEncodingJSON checks random documents and mutations of
// them against json.Valid, and that no prefix of a valid object is Invalid.
func TestScanValueMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		doc := wiretest.RandomJSON(r, 4)
		if r.Intn(2) == 0 {
			doc = wiretest.Mutate(r, doc)
		}
		data := []byte(doc)
		if got, want := scanWhole(data), json.Valid(data); got != want {
			t.Fatalf("%q: accepted %v, encoding/json %v", doc, got, want)
		}
		if !json.Valid(data) || !strings.HasPrefix(strings.TrimSpace(doc), "{") {
			continue
		}
		cut := r.Intn(len(data))
		if _, st := ScanValue(data[:cut], 0, 0); st == Invalid {
			t.Fatalf("prefix %q of valid %q: Invalid", data[:cut], doc)
		}
	}
}

// FuzzScanValue compares with json.Valid on arbitrary input.
func FuzzScanValue(f *testing.F) {
	f.Add([]byte(`{"a":[1,"b",{"c":null}]}`))
	f.Add([]byte(`[1e5, -0.5, "\u00e9"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := scanWhole(data), json.Valid(data); got != want {
			t.Fatalf("%q: accepted %v, encoding/json %v", data, got, want)
		}
	})
}
