package intern

import (
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// box identifies the box of an interface, to tell a shared interface from
// an equal copy.
func box(v any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1] }

func TestBoxedStringsFromBytesAndIntern(t *testing.T) {
	tests := []struct {
		name   string
		value  string
		shared bool // one box for all results
		kept   int  // values the table keeps
	}{
		{"short", "kube-system", true, 1},
		{"at the limit", strings.Repeat("k", 16), true, 1},
		{"over the limit", strings.Repeat("k", 17), false, 0},
		// Go boxes every empty string in one static box.
		{"empty", "", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table := NewBoxedStrings(64, 16)
			first := table.FromBytes([]byte(tt.value))
			second := table.FromBytes([]byte(tt.value))
			interned := table.Intern(any(strings.Clone(tt.value)))
			for i, got := range []any{first, second, interned} {
				if s, ok := got.(string); !ok || s != tt.value {
					t.Fatalf("result %d = %#v, want %q", i, got, tt.value)
				}
			}
			if got := box(first) == box(second) && box(first) == box(interned); got != tt.shared {
				t.Errorf("one box for all three: %v, want %v", got, tt.shared)
			}
			var kept []string
			table.Each(func(v string) { kept = append(kept, v) })
			if len(kept) != tt.kept {
				t.Errorf("table keeps %q, want %d values", kept, tt.kept)
			}
		})
	}
}

func TestBoxedStringsInternKeepsFirst(t *testing.T) {
	table := NewBoxedStrings(64, 64)
	first := any(strings.Clone("nginx:1.27"))
	if got := table.Intern(first); box(got) != box(first) {
		t.Fatal("a miss did not return its argument")
	}
	if got := table.FromBytes([]byte("nginx:1.27")); box(got) != box(first) {
		t.Error("FromBytes did not find the interface Intern kept")
	}
}

func TestBoxedStringsNilTable(t *testing.T) {
	var table *BoxedStrings
	if got := table.FromBytes([]byte("x")); got != "x" {
		t.Errorf("FromBytes on a nil table = %#v", got)
	}
}

// TestBoxedStringsConcurrent is for -race: lookups that race with
// evictions return equal strings.
func TestBoxedStringsConcurrent(t *testing.T) {
	table := NewBoxedStrings(4, 64)
	values := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g", "hh"}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				v := values[(i+w)%len(values)]
				if got := table.FromBytes([]byte(v)); got != v {
					t.Errorf("FromBytes(%q) = %#v", v, got)
					return
				}
				if got := table.Intern(any(v)); got != v {
					t.Errorf("Intern(%q) = %#v", v, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
