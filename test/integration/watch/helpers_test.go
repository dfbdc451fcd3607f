package watch

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// rv parses a resourceVersion; kube-apiserver's are etcd revisions.
func rv(t testing.TB, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q is not an integer: %v", s, err)
	}
	return n
}

// change is one write as the writer saw it acknowledged, or one watch event.
type change struct {
	typ   watch.EventType
	name  string
	value string // Data["v"]
	rv    int64  // 0 when the acknowledgement did not carry it (deletes)
}

// String formats c for failure messages.
func (c change) String() string {
	return fmt.Sprintf("%s %s v=%q rv=%d", c.typ, c.name, c.value, c.rv)
}

// changeOf turns a ConfigMap watch event into a change.
func changeOf(t testing.TB, ev watch.Event) change {
	t.Helper()
	cm, ok := ev.Object.(*corev1.ConfigMap)
	if !ok {
		t.Fatalf("%s event carries %T (%v), want *v1.ConfigMap", ev.Type, ev.Object, ev.Object)
	}
	return change{typ: ev.Type, name: cm.Name, value: cm.Data["v"], rv: rv(t, cm.ResourceVersion)}
}

// next returns the next event of w, ok=false when the result channel closed,
// and fails t when nothing arrives within d or ctx ends.
func next(ctx context.Context, t testing.TB, w watch.Interface, d time.Duration) (watch.Event, bool) {
	t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case ev, ok := <-w.ResultChan():
		return ev, ok
	case <-timer.C:
		t.Fatalf("no watch event within %v", d)
	case <-ctx.Done():
		t.Fatalf("no watch event before the test's deadline: %v", ctx.Err())
	}
	return watch.Event{}, false
}

// waitClosed fails t unless w's result channel closes within d; the events
// still delivered before the close are returned.
func waitClosed(t testing.TB, w watch.Interface, d time.Duration) []watch.Event {
	t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	var rest []watch.Event
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return rest
			}
			rest = append(rest, ev)
		case <-timer.C:
			t.Fatalf("result channel still open after %v", d)
			return rest
		}
	}
}

// names returns the names of a list's items.
func names(t testing.TB, list runtime.Object) []string {
	t.Helper()
	items, err := meta.ExtractList(list)
	if err != nil {
		t.Fatalf("ExtractList(%T): %v", list, err)
	}
	out := make([]string, 0, len(items))
	for _, item := range items {
		m, err := meta.Accessor(item)
		if err != nil {
			t.Fatalf("Accessor(%T): %v", item, err)
		}
		out = append(out, m.GetName())
	}
	return out
}
