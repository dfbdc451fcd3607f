package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestSkipValue(t *testing.T) {
	tests := []struct {
		text string
		end  int
	}{
		{`{"a":"}","b":[{"c":"\"]"}]},1`, 27},
		{`[1,[2],"]"] `, 11},
		{`"a\\"b`, 5},
		{`-1.5e3,`, 6},
		{`true}`, 4},
		{`null`, 4},
		{`12`, 2},
		{"0\n", 1},
	}
	for _, tt := range tests {
		if end := SkipValue([]byte(tt.text), 0); end != tt.end {
			t.Errorf("SkipValue(%q) = %d, want %d", tt.text, end, tt.end)
		}
	}
}

func TestSkipSpace(t *testing.T) {
	tests := []struct {
		text string
		from int
		end  int
	}{
		{"", 0, 0},
		{" \t\r\n", 0, 4},
		{"x \n y", 1, 4},
		{"\v", 0, 0},
	}
	for _, tt := range tests {
		if end := SkipSpace([]byte(tt.text), tt.from); end != tt.end {
			t.Errorf("SkipSpace(%q, %d) = %d, want %d", tt.text, tt.from, end, tt.end)
		}
	}
}

var unquoteTests = []string{
	`""`, `"plain"`, `"héllo"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud800\ud800\udc00"`,
	`"\\\/\b\f\n\r\t\""`, "\"a\xffb\"", "\"\xc3\"", "\"\xe2\x82\"", "\"\xed\xa0\x80\"", `"\u0000"`, `"\uFFFD"`, `"\uaBcD"`,
	"\"0123456789abcdef\xf0\x9f\x98\x80tail\"",
}

func TestAppendUnquotedMatchesEncodingJSON(t *testing.T) {
	for _, text := range unquoteTests {
		var want string
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := string(AppendUnquoted([]byte("prefix:"), []byte(text[1:len(text)-1]))); got != "prefix:"+want {
			t.Errorf("AppendUnquoted(%q) = %q, want %q", text, got, "prefix:"+want)
		}
	}
}

func FuzzAppendUnquoted(f *testing.F) {
	for _, text := range unquoteTests {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want string
		if json.Unmarshal(data, &want) != nil || len(data) == 0 || data[0] != '"' {
			return
		}
		end, plain, st := String(data, 0)
		if st != Complete || SkipSpace(data, end) != len(data) {
			t.Fatalf("String(%q) = %d, %d; encoding/json takes it whole", data, end, st)
		}
		raw := data[1 : end-1]
		if plain && string(raw) != want {
			t.Fatalf("String(%q) says plain, but its value is %q", data, want)
		}
		if got := string(AppendUnquoted(nil, raw)); got != want {
			t.Fatalf("AppendUnquoted(%q) = %q, want %q", raw, got, want)
		}
	})
}

func TestASCIIPlain(t *testing.T) {
	tests := []struct {
		body string
		want bool
	}{
		{``, true},
		{`name`, true},
		{`a longer name, past one word`, true},
		{`a\"b`, false},
		{`0123456789abcdef\n`, false},
		{"0123456789abcdef\x80", false},
		{"caf\xc3\xa9", false},
		{`quote " alone`, true},
		{`\n at the start of a long body`, false},
		{"caf\xc3\xa9 au lait, a long body", false},
	}
	for _, tt := range tests {
		if got := ASCIIPlain([]byte(tt.body)); got != tt.want {
			t.Errorf("ASCIIPlain(%q) = %v, want %v", tt.body, got, tt.want)
		}
	}
}

// TestSkipNumber: on checked number literals, SkipNumber ends where
// Number ends and tells integers as it does.
func TestSkipNumber(t *testing.T) {
	for _, text := range []string{`0`, `-12,`, `1.5}`, `1e9 `, `-0.5E-7]`, `12345678901234567890`, `3e+2\n`, `7.25e-3,`} {
		wantEnd, wantInteger, st := Number([]byte(text), 0)
		if st != Complete {
			t.Fatalf("Number(%q): %d", text, st)
		}
		if end, integer := SkipNumber([]byte(text), 0); end != wantEnd || integer != wantInteger {
			t.Errorf("SkipNumber(%q) = %d, %v; Number says %d, %v", text, end, integer, wantEnd, wantInteger)
		}
	}
}
