package cache

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// prio is a Heap element: key name, ordered by p.
type prio struct {
	name string
	p    int
}

func prioKey(obj interface{}) (string, error) {
	if p, ok := obj.(prio); ok {
		return p.name, nil
	}
	return "", errors.New("not a prio")
}

func prioLess(a, b interface{}) bool { return a.(prio).p < b.(prio).p }

// TestHeapMatchesModel drives a Heap with random operations and compares
// every result with a map-based model.
func TestHeapMatchesModel(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		h := NewHeap(prioKey, prioLess)
		model := map[string]int{}
		for op := 0; op < 400; op++ {
			name := fmt.Sprintf("k%d", rng.IntN(30))
			p := rng.IntN(50)
			switch rng.IntN(6) {
			case 0, 1:
				if err := h.Add(prio{name, p}); err != nil {
					t.Fatal(err)
				}
				model[name] = p
			case 2:
				if err := h.AddIfNotPresent(prio{name, p}); err != nil {
					t.Fatal(err)
				}
				if _, ok := model[name]; !ok {
					model[name] = p
				}
			case 3:
				err := h.Delete(prio{name: name})
				if _, ok := model[name]; ok != (err == nil) {
					t.Fatalf("seed %d: Delete(%s) = %v, model has it: %v", seed, name, err, ok)
				}
				delete(model, name)
			case 4:
				if len(model) == 0 {
					continue
				}
				obj, err := h.Pop()
				if err != nil {
					t.Fatal(err)
				}
				got := obj.(prio)
				for _, q := range model {
					if q < got.p {
						t.Fatalf("seed %d: Pop returned %v but %d is queued", seed, got, q)
					}
				}
				if model[got.name] != got.p {
					t.Fatalf("seed %d: Pop returned %v, model has %d", seed, got, model[got.name])
				}
				delete(model, got.name)
			case 5:
				obj, ok, err := h.GetByKey(name)
				want, wantOK := model[name]
				if err != nil || ok != wantOK || (ok && obj.(prio).p != want) {
					t.Fatalf("seed %d: GetByKey(%s) = %v %v %v, want %v %v", seed, name, obj, ok, err, want, wantOK)
				}
			}
			if len(h.ListKeys()) != len(model) || len(h.List()) != len(model) {
				t.Fatalf("seed %d: %d keys, model %d", seed, len(h.ListKeys()), len(model))
			}
		}
	}
}

func TestHeapPopOrderAndBulkAdd(t *testing.T) {
	h := NewHeap(prioKey, prioLess)
	if err := h.BulkAdd([]interface{}{prio{"c", 3}, prio{"a", 1}, prio{"b", 2}, prio{"a", 4}}); err != nil {
		t.Fatal(err)
	}
	var order []string
	for range 3 {
		obj, err := h.Pop()
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, obj.(prio).name)
	}
	if fmt.Sprint(order) != "[b c a]" {
		t.Errorf("pop order %v, want [b c a] (a was replaced by priority 4)", order)
	}
	err := h.BulkAdd([]interface{}{prio{"x", 1}, "bad", prio{"y", 2}})
	var keyErr KeyError
	if !errors.As(err, &keyErr) || keyErr.Obj != "bad" {
		t.Fatalf("BulkAdd with a bad object = %v, want KeyError", err)
	}
	if keys := h.ListKeys(); fmt.Sprint(keys) != "[x]" {
		t.Errorf("objects before the bad one stay added: keys %v", keys)
	}
}

func TestHeapErrors(t *testing.T) {
	h := NewHeap(prioKey, prioLess)
	for name, err := range map[string]error{
		"Add":             h.Add("bad"),
		"Update":          h.Update("bad"),
		"AddIfNotPresent": h.AddIfNotPresent("bad"),
		"Delete":          h.Delete("bad"),
	} {
		if !errors.As(err, new(KeyError)) {
			t.Errorf("%s of an object without key = %v, want KeyError", name, err)
		}
	}
	if _, _, err := h.Get("bad"); !errors.As(err, new(KeyError)) {
		t.Errorf("Get of an object without key = %v", err)
	}
	if err := h.Delete(prio{name: "missing"}); err == nil || err.Error() != "object not found" {
		t.Errorf("Delete of a missing item = %v", err)
	}
	if obj, ok, err := h.Get(prio{name: "missing"}); obj != nil || ok || err != nil {
		t.Errorf("Get of a missing item = %v %v %v", obj, ok, err)
	}
}

func TestHeapCloseWakesPop(t *testing.T) {
	h := NewHeap(prioKey, prioLess)
	popped := make(chan error)
	go func() {
		_, err := h.Pop()
		popped <- err
	}()
	h.Close()
	if err := <-popped; err == nil || err.Error() != "heap is closed" {
		t.Errorf("Pop after Close = %v", err)
	}
	if !h.IsClosed() {
		t.Error("IsClosed = false after Close")
	}
	for name, err := range map[string]error{
		"Add":             h.Add(prio{"a", 1}),
		"AddIfNotPresent": h.AddIfNotPresent(prio{"a", 1}),
		"BulkAdd":         h.BulkAdd([]interface{}{prio{"a", 1}}),
	} {
		if err == nil || err.Error() != "heap is closed" {
			t.Errorf("%s after Close = %v", name, err)
		}
	}
}

func TestHeapPopWaitsForAdd(t *testing.T) {
	h := NewHeap(prioKey, prioLess)
	popped := make(chan interface{})
	go func() {
		obj, _ := h.Pop()
		popped <- obj
	}()
	if err := h.Add(prio{"a", 1}); err != nil {
		t.Fatal(err)
	}
	if got := <-popped; got != (prio{"a", 1}) {
		t.Errorf("Pop = %v", got)
	}
	_ = h.Add(prio{"b", 2})
	_ = h.Add(prio{"c", 1})
	keys := h.ListKeys()
	sort.Strings(keys)
	if fmt.Sprint(keys) != "[b c]" {
		t.Errorf("keys %v", keys)
	}
}

func TestHeap(t *testing.T) {
	less := func(a, b interface{}) bool { return a.(*v1.Pod).ResourceVersion < b.(*v1.Pod).ResourceVersion }
	h := NewHeap(MetaNamespaceKeyFunc, less)
	_ = h.Add(pod("ns", "c", "3", nil))
	_ = h.BulkAdd([]interface{}{pod("ns", "a", "5", nil), pod("ns", "b", "2", nil)})
	_ = h.Update(pod("ns", "a", "1", nil))                    // moves to the front
	_ = h.AddIfNotPresent(pod("ns", "b", "0", nil))           // ignored: present
	_ = h.AddIfNotPresent(pod("ns", "d", "4", nil))           // added
	if err := h.Delete(pod("ns", "c", "", nil)); err != nil { // removed
		t.Fatal(err)
	}
	if err := h.Delete(pod("ns", "missing", "", nil)); err == nil {
		t.Error("deleting a missing item should fail")
	}
	if obj, ok, _ := h.GetByKey("ns/b"); !ok || obj.(*v1.Pod).ResourceVersion != "2" {
		t.Errorf("GetByKey = %v %v", obj, ok)
	}
	if len(h.List()) != 3 || len(h.ListKeys()) != 3 {
		t.Errorf("List/ListKeys sizes %d %d", len(h.List()), len(h.ListKeys()))
	}
	var got []string
	for i := 0; i < 3; i++ {
		obj, err := h.Pop()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, obj.(*v1.Pod).Name)
	}
	if strings.Join(got, "") != "abd" {
		t.Errorf("pop order %v", got)
	}
	h.Close()
	if _, err := h.Pop(); err == nil || !h.IsClosed() {
		t.Error("Pop on closed heap should fail")
	}
}
