package cache

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// Helpers shared by the queue tests (delta_fifo_test.go,
// real_fifo_test.go, fifo_test.go).

// describeDeltas renders deltas as "Type:name@rv" for compact comparison.
func describeDeltas(d Deltas) string {
	parts := make([]string, 0, len(d))
	for _, delta := range d {
		switch o := delta.Object.(type) {
		case *v1.Pod:
			parts = append(parts, fmt.Sprintf("%s:%s@%s", delta.Type, o.Name, o.ResourceVersion))
		case DeletedFinalStateUnknown:
			inner := "nil"
			if p, ok := o.Obj.(*v1.Pod); ok {
				inner = p.Name + "@" + p.ResourceVersion
			}
			parts = append(parts, fmt.Sprintf("%s:tombstone(%s,%s)", delta.Type, o.Key, inner))
		default:
			parts = append(parts, fmt.Sprintf("%s:%T", delta.Type, o))
		}
	}
	return strings.Join(parts, " ")
}

func popDeltas(t *testing.T, q Queue) (Deltas, bool) {
	t.Helper()
	var inInitial bool
	obj, err := q.Pop(func(obj interface{}, initial bool) error {
		inInitial = initial
		return nil
	})
	if err != nil {
		t.Fatalf("Pop: %v", err)
	}
	return obj.(Deltas), inInitial
}

// pendingDeltas is how many pops a delta queue can make without blocking.
func pendingDeltas(q Queue) int {
	switch f := q.(type) {
	case *DeltaFIFO:
		f.lock.Lock()
		defer f.lock.Unlock()
		return f.byKey.pending()
	case *RealFIFO:
		f.lock.Lock()
		defer f.lock.Unlock()
		return f.stream.pending()
	}
	panic(fmt.Sprintf("not a delta queue: %T", q))
}

// drainDeltas pops everything queued and describes each pop.
func drainDeltas(t *testing.T, q Queue) []string {
	t.Helper()
	var pops []string
	for pendingDeltas(q) > 0 {
		d, _ := popDeltas(t, q)
		pops = append(pops, describeDeltas(d))
	}
	return pops
}

// fakeKnownObjects is a KeyListerGetter whose listing and lookups a test
// chooses: keys lists, objs answers lookups, and a key in failing makes
// its lookup fail.
type fakeKnownObjects struct {
	keys    []string
	objs    map[string]interface{}
	failing map[string]bool
}

func (k *fakeKnownObjects) ListKeys() []string { return k.keys }

func (k *fakeKnownObjects) GetByKey(key string) (interface{}, bool, error) {
	if k.failing[key] {
		return nil, false, errors.New("lookup failed")
	}
	obj, ok := k.objs[key]
	return obj, ok, nil
}

// knownPods returns known objects holding the given pods.
func knownPods(pods ...*v1.Pod) *fakeKnownObjects {
	k := &fakeKnownObjects{objs: map[string]interface{}{}}
	for _, p := range pods {
		key := p.Namespace + "/" + p.Name
		k.keys = append(k.keys, key)
		k.objs[key] = p
	}
	return k
}

// labelTransform marks the pods it transforms and counts its calls.
func labelTransform(calls *int) TransformFunc {
	return func(obj interface{}) (interface{}, error) {
		*calls++
		p := obj.(*v1.Pod).DeepCopy()
		p.Labels = map[string]string{"transformed": "yes"}
		return p, nil
	}
}

func isTransformed(obj interface{}) bool {
	p, ok := obj.(*v1.Pod)
	return ok && p.Labels["transformed"] == "yes"
}
