package lex

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func TestInternerSharesAndBounds(t *testing.T) {
	in := NewInterner(4, 8)
	a := in.String([]byte("abc"))
	b := in.String([]byte("abc"))
	if a != "abc" || b != "abc" || stringData(a) != stringData(b) {
		t.Fatalf("repeated string not shared: %q %q", a, b)
	}
	long := in.String([]byte("123456789"))
	if long != "123456789" || stringData(long) == stringData(in.String([]byte("123456789"))) {
		t.Fatalf("string over maxLen interned")
	}
	for i := range 1000 {
		s := fmt.Sprint(i)
		if got := in.String([]byte(s)); got != s {
			t.Fatalf("got %q want %q", got, s)
		}
	}
	held := 0
	for i := range in.slots {
		if in.slots[i].Load() != nil {
			held++
		}
	}
	if held > 4 {
		t.Fatalf("table holds %d strings, more than its 4 slots", held)
	}
	var nilTable *Interner
	if nilTable.String([]byte("x")) != "x" {
		t.Fatal("nil table")
	}
}

// stringData identifies a string's storage, to tell shared strings from
// equal copies.
func stringData(s string) *byte { return unsafe.StringData(s) }

func TestInternerConcurrentUse(t *testing.T) {
	in := NewInterner(16, 64)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				s := strings.Repeat("k", (i+g)%20) + fmt.Sprint(i%37)
				if got := in.String([]byte(s)); got != s {
					t.Errorf("got %q want %q", got, s)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkInternerHit(b *testing.B) {
	in := NewInterner(8192, 128)
	key := []byte("app.kubernetes.io/instance")
	in.String(key)
	b.ReportAllocs()
	for b.Loop() {
		_ = in.String(key)
	}
}

func BenchmarkInternerHitParallel(b *testing.B) {
	in := NewInterner(8192, 128)
	keys := [][]byte{[]byte("production"), []byte("registry.example.com/shop/web-frontend:v2.14.3"), []byte("kube-controller-manager"), []byte("True")}
	for _, k := range keys {
		in.String(k)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			_ = in.String(keys[i&3])
			i++
		}
	})
}
