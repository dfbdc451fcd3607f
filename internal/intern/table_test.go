package intern

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestTableInterns(t *testing.T) {
	tests := []struct {
		name  string
		value string
		kept  bool
	}{
		{"short", "kube-system", true},
		{"limit", strings.Repeat("x", 16), true},
		{"too long", strings.Repeat("x", 17), false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			strs := NewStrings(64, 16)
			if got := strs.Intern(strings.Clone(tt.value)); got != tt.value {
				t.Fatalf("Intern = %q, want %q", got, tt.value)
			}
			if got := strs.Intern(strings.Clone(tt.value)); got != tt.value {
				t.Fatalf("Intern = %q, want %q", got, tt.value)
			}
			// Byte slices show identity; strings go through the same
			// generic code.
			table := NewBytes(64, 16)
			first, second := []byte(tt.value), []byte(tt.value)
			table.Intern(first)
			got := table.Intern(second)
			if string(got) != tt.value {
				t.Fatalf("Intern = %q, want %q", got, tt.value)
			}
			if shared := len(got) > 0 && &got[0] == &first[0]; shared != tt.kept {
				t.Errorf("second Intern returned the first copy: %v, want %v", shared, tt.kept)
			}
		})
	}
}

func TestBytesInterns(t *testing.T) {
	table := NewBytes(64, 8)
	a, b := []byte("f:spec"), []byte("f:spec")
	table.Intern(a)
	if got := table.Intern(b); &got[0] != &a[0] {
		t.Error("equal byte slices are not shared")
	}
	long := []byte("f:metadata")
	if got := table.Intern(long); &got[0] != &long[0] {
		t.Error("a slice over the limit was replaced")
	}
}

// TestTableIsBounded passes many distinct values through a table: it
// keeps at most its slot count, so high-cardinality values cannot make it
// grow.
func TestTableIsBounded(t *testing.T) {
	const slots, maxLen = 256, 32
	table := NewStrings(slots, maxLen)
	for i := 0; i < 100_000; i++ {
		table.Intern("pod-" + strconv.Itoa(i))
	}
	values, total := 0, 0
	table.Each(func(s string) { values++; total += len(s) })
	if values > table.Slots() || table.Slots() != slots {
		t.Fatalf("table keeps %d values in %d slots, want at most %d", values, table.Slots(), slots)
	}
	if total > slots*maxLen {
		t.Fatalf("table keeps %d bytes, want at most %d", total, slots*maxLen)
	}
	kept := false
	table.Each(func(s string) { kept = kept || s == "pod-99999" })
	if !kept {
		t.Error("the last value interned is not kept")
	}
}

// TestTableConcurrentUse interns from several goroutines (run with -race):
// every result equals its argument.
func TestTableConcurrentUse(t *testing.T) {
	table := NewStrings(16, 64)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10_000; i++ {
				want := "value-" + strconv.Itoa(i%100)
				if got := table.Intern(want); got != want {
					t.Errorf("Intern(%q) = %q", want, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
