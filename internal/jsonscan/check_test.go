package jsonscan

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

var checkTests = []string{
	``, ` `, `{}`, `[]`, `null`, `nul`, `nulll`, `true`, `false`, `tru`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1E-7`,
	`-1.5e+300`, `"a"`, `"`, `"\u12"`, `"\u123g"`, `"\ud800"`, `"\'"`, `"\x"`, "\"\x01\"", "\"\x7f\"", "\"\xff\"",
	`{"a":1,}`, `{"a":1 "b":2}`, `{"a" 1}`, `{1:2}`, `[1,]`, `[,1]`, `[1 2]`, `{"a":[{"b":null}]}`, ` [ 1 , 2 ] `,
	`{} x`, `{}}`, `[[]`, "\"tab\there\"", `"\/\b\f\n\r\t\\\""`, `{"a":"b"}` + "\x00", `{"a":"b",`, `{"a":"b" `,
	strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	`{"a":"0123456789abcdef0123456789\"abcdef"}`, `"` + strings.Repeat("x", 17) + "\x1f" + `"`,
}

func TestCheckMatchesEncodingJSON(t *testing.T) {
	for _, text := range checkTests {
		if got, want := Check([]byte(text), nil), json.Valid([]byte(text)); got != want {
			t.Errorf("Check(%.40q) = %v, encoding/json says %v", text, got, want)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, text := range checkTests {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Check(data, nil), json.Valid(data); got != want {
			t.Fatalf("Check(%q) = %v, encoding/json says %v", data, got, want)
		}
	})
}

func TestCheckIndex(t *testing.T) {
	tests := []struct {
		text  string
		index []Span
	}{
		{`"x"`, nil},
		{`{}`, []Span{{0, 2, 0}}},
		{` {"a":[1,{"b":[]},"]"],"c":{}} `, []Span{{1, 30, 2}, {6, 22, 3}, {9, 17, 1}, {14, 16, 0}, {27, 29, 0}}},
		{`[[],[[]]]`, []Span{{0, 9, 2}, {1, 3, 0}, {4, 8, 1}, {5, 7, 0}}},
	}
	for _, tt := range tests {
		var index []Span
		if !Check([]byte(tt.text), &index) {
			t.Fatalf("Check(%q) = false", tt.text)
		}
		if !slices.Equal(index, tt.index) {
			t.Errorf("Check(%q) index %v, want %v", tt.text, index, tt.index)
		}
	}
}

func TestCheckPrefix(t *testing.T) {
	tests := []struct {
		text string
		end  int
		st   Status
	}{
		{`{"a":1} {"b":2}`, 7, Complete},
		{` [1,2]x`, 6, Complete},
		{`12 `, 2, Complete},
		{`"a\"b" ,`, 6, Complete},
		{`true`, 4, Complete},
		{``, 0, Short},
		{`{"a":[1,2`, 0, Short},
		{`{"a":"\u00`, 0, Short},
		{`{"a":1.`, 0, Short},
		{`fals`, 0, Short},
		{`{"a":1,}`, 0, Invalid},
		{`{"a":01}`, 0, Invalid},
		{`fase`, 0, Invalid},
		{"\"\x01\"", 0, Invalid},
		{`]`, 0, Invalid},
	}
	for _, tt := range tests {
		if end, st := CheckPrefix([]byte(tt.text), nil); end != tt.end || st != tt.st {
			t.Errorf("CheckPrefix(%q) = %d, %d; want %d, %d", tt.text, end, st, tt.end, tt.st)
		}
		if got, want := Malformed([]byte(tt.text)), tt.st == Invalid; got != want {
			t.Errorf("Malformed(%q) = %v, want %v", tt.text, got, want)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		text  string
		end   int
		plain bool
		st    Status
	}{
		{`"" `, 2, true, Complete},
		{`"plain text, longer than a word",`, 32, true, Complete},
		{`"héllo"`, 8, true, Complete},
		{"\"a\xffb\"", 5, false, Complete},
		{`"a\nb"`, 6, false, Complete},
		{`"\u00e9"`, 8, false, Complete},
		{`"0123456789abcdef\\"`, 20, false, Complete},
		{`"abc`, 0, false, Short},
		{`"abc\`, 0, false, Short},
		{`"\u12`, 0, false, Short},
		{`"\u12g4"`, 0, false, Invalid},
		{`"\x"`, 0, false, Invalid},
		{"\"0123456789\x1f\"", 0, false, Invalid},
	}
	for _, tt := range tests {
		end, plain, st := String([]byte(tt.text), 0)
		if end != tt.end || plain != tt.plain || st != tt.st {
			t.Errorf("String(%q) = %d, %v, %d; want %d, %v, %d", tt.text, end, plain, st, tt.end, tt.plain, tt.st)
		}
		if st != Complete {
			continue
		}
		if end2, plain2 := SkipString([]byte(tt.text), 0); end2 != end || plain2 != plain {
			t.Errorf("SkipString(%q) = %d, %v; String says %d, %v", tt.text, end2, plain2, end, plain)
		}
	}
}

func TestNumber(t *testing.T) {
	tests := []struct {
		text    string
		end     int
		integer bool
		st      Status
	}{
		{`0`, 1, true, Complete},
		{`-12,`, 3, true, Complete},
		{`01`, 1, true, Complete},
		{`1.5}`, 3, false, Complete},
		{`1e9 `, 3, false, Complete},
		{`-0.5E-7]`, 7, false, Complete},
		{`-`, 0, false, Short},
		{`1.`, 0, false, Short},
		{`1e+`, 0, false, Short},
		{`-x`, 0, false, Invalid},
		{`1.e`, 0, false, Invalid},
		{`1ex`, 0, false, Invalid},
	}
	for _, tt := range tests {
		end, integer, st := Number([]byte(tt.text), 0)
		if end != tt.end || integer != tt.integer || st != tt.st {
			t.Errorf("Number(%q) = %d, %v, %d; want %d, %v, %d", tt.text, end, integer, st, tt.end, tt.integer, tt.st)
		}
	}
}
