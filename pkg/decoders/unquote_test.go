package decoders

import (
	"encoding/json"
	"testing"
)

var unquoteCases = []string{
	`""`, `"plain"`, `"héllo"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud800\ud800\udc00"`,
	`"\\\/\b\f\n\r\t\""`, "\"a\xffb\"", "\"\xc3\"", "\"\xe2\x82\"", "\"\xed\xa0\x80\"", `"\u0000"`, `"\uFFFD"`,
	"\"0123456789abcdef\xf0\x9f\x98\x80tail\"",
}

// TestStringMatchesEncodingJSON compares the lexer's string reading with
// encoding/json's (which sigs.k8s.io/json shares) on escapes, surrogates
// and invalid UTF-8.
func TestStringMatchesEncodingJSON(t *testing.T) {
	for _, c := range unquoteCases {
		var want string
		if err := json.Unmarshal([]byte(c), &want); err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		var got string
		if err := String(newLexer([]byte(c), nil), &got); err != nil || got != want {
			t.Errorf("String(%q) = %q, %v; want %q", c, got, err, want)
		}
	}
}

func FuzzString(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want string
		if json.Unmarshal(data, &want) != nil || Validate(data) != nil || data[0] != '"' {
			return
		}
		var got string
		if err := UniqueString(newLexer(data, nil), &got); err != nil || got != want {
			t.Fatalf("UniqueString(%q) = %q, %v; want %q", data, got, err, want)
		}
	})
}
