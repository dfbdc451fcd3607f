package intern

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// storage identifies a string's bytes, to tell a shared string from an
// equal copy.
func storage(s string) *byte { return unsafe.StringData(s) }

func TestStringsFromBytes(t *testing.T) {
	tests := []struct {
		name   string
		value  string
		shared bool
	}{
		{"short", "kube-system", true},
		{"at the limit", strings.Repeat("k", 16), true},
		{"over the limit", strings.Repeat("k", 17), false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table := NewStrings(64, 16)
			first := table.FromBytes([]byte(tt.value))
			second := table.FromBytes([]byte(tt.value))
			if first != tt.value || second != tt.value {
				t.Fatalf("FromBytes = %q, %q; want %q", first, second, tt.value)
			}
			if got := len(tt.value) > 0 && storage(first) == storage(second); got != tt.shared {
				t.Errorf("second call returned the first string: %v, want %v", got, tt.shared)
			}
		})
	}
}

// TestStringsFromBytesMeetsIntern checks that a string kept by Intern is
// found by FromBytes and the other way round: decoders and the cache's
// Sharer use one table.
func TestStringsFromBytesMeetsIntern(t *testing.T) {
	table := NewStrings(64, 32)
	kept := table.Intern(strings.Clone("app.kubernetes.io/name"))
	if got := table.FromBytes([]byte("app.kubernetes.io/name")); storage(got) != storage(kept) {
		t.Error("FromBytes did not find the string Intern kept")
	}
	decoded := table.FromBytes([]byte("registry.k8s.io/pause:3.10"))
	if got := table.Intern(strings.Clone("registry.k8s.io/pause:3.10")); storage(got) != storage(decoded) {
		t.Error("Intern did not find the string FromBytes kept")
	}
}

func TestStringsFromBytesNilTable(t *testing.T) {
	var table *Strings
	if got := table.FromBytes([]byte("x")); got != "x" {
		t.Fatalf("FromBytes on nil = %q", got)
	}
}

func TestStringsFromBytesIsBounded(t *testing.T) {
	table := NewStrings(8, 16)
	for i := range 10_000 {
		want := fmt.Sprint("pod-", i)
		if got := table.FromBytes([]byte(want)); got != want {
			t.Fatalf("FromBytes = %q, want %q", got, want)
		}
	}
	held := 0
	table.Each(func(string) { held++ })
	if held > table.Slots() {
		t.Fatalf("table holds %d strings in %d slots", held, table.Slots())
	}
}

// TestStringsFromBytesConcurrentUse runs under -race: lookups and
// replacements from several goroutines need no lock.
func TestStringsFromBytesConcurrentUse(t *testing.T) {
	table := NewStrings(16, 64)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 5000 {
				want := strings.Repeat("k", (i+g)%20) + fmt.Sprint(i%37)
				if got := table.FromBytes([]byte(want)); got != want {
					t.Errorf("FromBytes = %q, want %q", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkStringsFromBytesHit(b *testing.B) {
	table := NewStrings(1<<14, 512)
	key := []byte("app.kubernetes.io/instance")
	table.FromBytes(key)
	b.ReportAllocs()
	for b.Loop() {
		_ = table.FromBytes(key)
	}
}
