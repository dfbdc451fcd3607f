package wire

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/kubeclient/client-go/internal/intern"
)

// TestRecentStrings: a recentStrings returns what the table's FromBytes
// returns, its copy of each string, whether the string was met before in
// the decode, shares a slot with another string, is empty or too long to
// keep.
func TestRecentStrings(t *testing.T) {
	table := intern.NewStrings(1<<10, 512)
	long := strings.Repeat("x", maxRecentString+1)
	tests := []struct {
		name string
		seq  []string // decoded in order; each must come back equal
		kept bool     // the last one, unless empty, is the table's copy
	}{
		{"once", []string{"default"}, true},
		{"again", []string{"default", "kube-system", "default"}, true},
		{"same ends and length", []string{"pod-a-1", "pod-b-1", "pod-a-1"}, true},
		{"same ends, longer than two words", []string{"abcdefgh-1-ijklmnop", "abcdefgh-2-ijklmnop", "abcdefgh-1-ijklmnop"}, true},
		{"sixteen bytes", []string{"0123456789abcdef", "0123456x89abcdef", "0123456789abcdef"}, true},
		{"five bytes", []string{"abXde", "abYde"}, true},
		{"short", []string{"a", "b", "ab", "a"}, true},
		{"empty", []string{"", "a", ""}, false},
		{"longer than kept here", []string{long, long}, true},
		{"longer than the table keeps", []string{strings.Repeat("y", 513)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c recentStrings
			for _, s := range tt.seq {
				if got := c.fromBytes(table, []byte(s)); got != s {
					t.Fatalf("fromBytes(%q) = %q", s, got)
				}
			}
			last := tt.seq[len(tt.seq)-1]
			if last == "" {
				return
			}
			got, want := c.fromBytes(table, []byte(last)), table.FromBytes([]byte(last))
			if same := unsafe.StringData(got) == unsafe.StringData(want); same != tt.kept {
				t.Errorf("fromBytes(%q) is the table's copy: %v, want %v", last, same, tt.kept)
			}
		})
	}
}

// TestWords: for strings of at most 16 bytes, equal lengths and words
// mean equal strings.
func TestWords(t *testing.T) {
	strs := []string{"a", "b", "ab", "ba", "aXc", "aYc", "abc", "abcd", "abXde", "abYde", "abcdefg",
		"abcdefgh", "abcdefgX", "Xbcdefgh", "abcdefghi", "abcdXfghi", "0123456789abcdef", "0123456x89abcdef"}
	type key struct {
		n    int
		a, z uint64
	}
	seen := make(map[key]string)
	for _, s := range strs {
		a, z := words([]byte(s))
		k := key{len(s), a, z}
		if prev, ok := seen[k]; ok {
			t.Errorf("%q and %q have the same length and words", prev, s)
		}
		seen[k] = s
	}
}
