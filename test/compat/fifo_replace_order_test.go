package compat

import (
	"fmt"
	"testing"

	"github.com/kubeclient/client-go/tools/cache"
)

// README: "tools/cache.FIFO.Replace queues the listed objects in list
// order (client-go's order follows map iteration, i.e. is random)".

// TestFIFOReplaceThenPop: a program replaces a FIFO's contents and pops
// everything. It gets every object once, as on client-go (whose order it
// could not rely on); the order is now the list's.
func TestFIFOReplaceThenPop(t *testing.T) {
	f := cache.NewFIFO(cache.MetaNamespaceKeyFunc)
	var list []interface{}
	for i := range 5 {
		list = append(list, testPod(fmt.Sprintf("p%d", i), "1"))
	}
	if err := f.Replace(list, "1"); err != nil {
		t.Fatal(err)
	}
	var popped []string
	for range list {
		obj, err := f.Pop(func(obj interface{}, _ bool) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		key, _ := cache.MetaNamespaceKeyFunc(obj)
		popped = append(popped, key)
	}
	if got := fmt.Sprint(popped); got != "[ns/p0 ns/p1 ns/p2 ns/p3 ns/p4]" {
		t.Errorf("popped %s, want every object once in list order", got)
	}
}
