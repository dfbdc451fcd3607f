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

// TestRecentSlot: strings that differ in length, first or last bytes
// mostly take different slots.
func TestRecentSlot(t *testing.T) {
	seen := make(map[uint64]bool)
	words := []string{"a", "b", "ab", "ba", "abc", "default", "kube-system", "kube-public",
		"Running", "Pending", "True", "False", "Ready", "PodScheduled", "Initialized",
		"ContainersReady", "app", "app.kubernetes.io/name", "pod-template-hash", "nginx"}
	for _, w := range words {
		seen[recentSlot([]byte(w))] = true
	}
	if len(seen) < len(words)-2 {
		t.Errorf("%d words took %d slots", len(words), len(seen))
	}
}
