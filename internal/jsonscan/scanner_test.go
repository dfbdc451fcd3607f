package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// span is where a top-level object or array starts and ends (the offset
// after its closing bracket, -1 for one that never closes).
type valueSpan struct{ start, end int }

var scannerTests = []struct {
	name   string
	text   string
	values []valueSpan
}{
	{"empty", ``, nil},
	{"empty object", `{}`, []valueSpan{{0, 2}}},
	{"two objects", ` {"a":1} {"b":[2]}` + "\n", []valueSpan{{1, 8}, {9, 18}}},
	{"braces in a string", `{"a":"}{]["}`, []valueSpan{{0, 12}}},
	{"escaped quote", `{"a":"\"}"}`, []valueSpan{{0, 11}}},
	{"escaped backslash", `{"a":"\\"}{}`, []valueSpan{{0, 10}, {10, 12}}},
	{"escaped backslash and quote", `{"a":"\\\"}"}`, []valueSpan{{0, 13}}},
	{"unicode escape", `{"a":"\u007d"}`, []valueSpan{{0, 14}}},
	{"long strings", `{"0123456789abcdef":"0123456789abcdef\"0123}456789\\","b":"\\\\\\\"]}]"}`, []valueSpan{{0, 72}}},
	{"arrays", `[{"a":"]"}] [ ]`, []valueSpan{{0, 11}, {12, 15}}},
	{"top-level string", `"{[" {}`, []valueSpan{{5, 7}}},
	{"top-level string with escapes", `"\"{" {}`, []valueSpan{{6, 8}}},
	{"stray closing brackets", `}] {}]`, []valueSpan{{3, 5}}},
	{"control character in a string", "{\"a\":\"x\x01}\"}", []valueSpan{{0, 11}}},
	{"non-ASCII", `{"é":"ü}"}{}`, []valueSpan{{0, 12}, {12, 14}}},
	{"nested", `{"a":{"b":[{"c":[[]]}]}}`, []valueSpan{{0, 24}}},
	{"unclosed", `{"a":[1,2`, []valueSpan{{0, -1}}},
	{"unclosed string", `{} {"a":"}`, []valueSpan{{0, 2}, {3, -1}}},
	{"cut after a backslash", `{"a":"\`, []valueSpan{{0, -1}}},
}

// heldAfter returns what Held must say after the first k bytes.
func heldAfter(values []valueSpan, k int) int {
	for _, v := range values {
		if v.start < k && (v.end < 0 || k < v.end) {
			return k - v.start
		}
	}
	return 0
}

// ends returns the ends that values close at.
func ends(values []valueSpan) []int {
	var e []int
	for _, v := range values {
		if v.end >= 0 {
			e = append(e, v.end)
		}
	}
	return e
}

// scanPieces scans text cut into pieces at the offsets cuts and returns
// the offsets after each closing bracket Scan reported, checking Held at
// each cut.
func scanPieces(t *testing.T, text string, values []valueSpan, cuts []int) []int {
	t.Helper()
	var s Scanner
	var found []int
	from := 0
	for _, to := range append(cuts, len(text)) {
		p := []byte(text[from:to])
		base := from
		for len(p) > 0 {
			n, closed := s.Scan(p)
			if closed {
				found = append(found, base+n)
			} else if n != len(p) {
				t.Fatalf("Scan read %d of %d bytes without a value closing", n, len(p))
			}
			base += n
			p = p[n:]
		}
		if got, want := s.Held(), heldAfter(values, to); got != want {
			t.Fatalf("cut at %v: Held() = %d after %d bytes, want %d", cuts, got, to, want)
		}
		from = to
	}
	return found
}

func TestScannerFindsValueEnds(t *testing.T) {
	for _, tt := range scannerTests {
		t.Run(tt.name, func(t *testing.T) {
			want := ends(tt.values)
			if got := scanPieces(t, tt.text, tt.values, nil); !slices.Equal(got, want) {
				t.Fatalf("whole: ends %v, want %v", got, want)
			}
			for k := 0; k <= len(tt.text); k++ {
				if got := scanPieces(t, tt.text, tt.values, []int{k}); !slices.Equal(got, want) {
					t.Fatalf("cut at %d: ends %v, want %v", k, got, want)
				}
			}
			bytewise := make([]int, len(tt.text))
			for k := range bytewise {
				bytewise[k] = k
			}
			if got := scanPieces(t, tt.text, tt.values, bytewise); !slices.Equal(got, want) {
				t.Fatalf("byte by byte: ends %v, want %v", got, want)
			}
		})
	}
}

func TestScannerFeed(t *testing.T) {
	for _, tt := range scannerTests {
		t.Run(tt.name, func(t *testing.T) {
			for k := 0; k <= len(tt.text); k++ {
				var s Scanner
				s.Feed([]byte(tt.text[:k]))
				if got, want := s.Held(), heldAfter(tt.values, k); got != want {
					t.Fatalf("Held() = %d after feeding %d bytes, want %d", got, k, want)
				}
				s.Feed([]byte(tt.text[k:]))
				if got, want := s.Held(), heldAfter(tt.values, len(tt.text)); got != want {
					t.Fatalf("Held() = %d after feeding %d and the rest, want %d", got, k, want)
				}
			}
		})
	}
}

// TestScannerGrowingBuffer finds the end of one object in a buffer that
// grows by chunks, scanning only the new bytes each time, as a watch
// stream's reader does.
func TestScannerGrowingBuffer(t *testing.T) {
	obj := `{"metadata":{"name":"a\"}","labels":{"x":"[{"}},"spec":[` + strings.Repeat(`{"k":"\\"},`, 20) + `{}]}`
	text := obj + ` {"next":1}`
	for chunk := 1; chunk <= len(text); chunk++ {
		t.Run(fmt.Sprint(chunk), func(t *testing.T) {
			var s Scanner
			var buf []byte
			pos := 0
			for len(buf) < len(text) {
				buf = append(buf, text[len(buf):min(len(buf)+chunk, len(text))]...)
				n, closed := s.Scan(buf[pos:])
				pos += n
				if closed {
					if pos != len(obj) {
						t.Fatalf("object ends at %d, want %d", pos, len(obj))
					}
					return
				}
			}
			t.Fatal("object never closed")
		})
	}
}

// FuzzScannerMatchesEncodingJSON checks the ends the Scanner finds, with
// the text cut in two at cut, against encoding/json's stream decoder on
// the values it decodes from the start of data.
func FuzzScannerMatchesEncodingJSON(f *testing.F) {
	for _, tt := range scannerTests {
		f.Add([]byte(tt.text), uint(len(tt.text)/2))
	}
	f.Add([]byte(`{"a":"\u007b\\"} ["}"] "{" 1 {"b":[{}]}`), uint(7))
	f.Fuzz(func(t *testing.T, data []byte, cut uint) {
		dec := json.NewDecoder(bytes.NewReader(data))
		var want []int
		decoded := 0
		for {
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				break
			}
			decoded = int(dec.InputOffset())
			if v[0] == '{' || v[0] == '[' {
				want = append(want, decoded)
			}
		}
		text := string(data[:decoded])
		var s Scanner
		var got []int
		k := int(cut % uint(len(text)+1))
		for from, p := 0, []byte(text[:k]); ; p = []byte(text[k:]) {
			for len(p) > 0 {
				n, closed := s.Scan(p)
				if closed {
					got = append(got, from+n)
				}
				from, p = from+n, p[n:]
			}
			if from == len(text) {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Scanner on %q cut at %d: ends %v, encoding/json %v", text, k, got, want)
		}
		if s.Held() != 0 {
			t.Fatalf("Scanner on %q holds %d bytes after complete values", text, s.Held())
		}
	})
}
