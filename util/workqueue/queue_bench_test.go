package workqueue

import (
	"strconv"
	"testing"
)

// BenchmarkTypedAddGetDone is one Add, Get and Done of distinct string keys
// on an uncontended queue: the length of the critical sections.
func BenchmarkTypedAddGetDone(b *testing.B) {
	q := NewTyped[any]()
	defer q.ShutDown()
	keys := make([]any, 1024)
	for i := range keys {
		keys[i] = "namespace/object-" + strconv.Itoa(i)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		q.Add(keys[i%len(keys)])
		item, _ := q.Get()
		q.Done(item)
	}
}
