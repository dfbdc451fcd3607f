package cache

import (
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

func TestFilteringResourceEventHandler(t *testing.T) {
	tests := []struct {
		name     string
		old, new *v1.Pod
		want     string
	}{
		{"both pass", pod("", "a", "", map[string]string{"ok": "1"}), pod("", "a", "", map[string]string{"ok": "1"}), "update a"},
		{"starts passing", pod("", "a", "", nil), pod("", "a", "", map[string]string{"ok": "1"}), "add a initial=false"},
		{"stops passing", pod("", "a", "", map[string]string{"ok": "1"}), pod("", "a", "", nil), "delete a"},
		{"neither", pod("", "a", "", nil), pod("", "a", "", nil), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := &eventLog{}
			h := FilteringResourceEventHandler{
				FilterFunc: func(obj interface{}) bool { return obj.(*v1.Pod).Labels["ok"] == "1" },
				Handler:    log,
			}
			h.OnUpdate(tc.old, tc.new)
			if got := strings.Join(log.snapshot(), ";"); got != tc.want {
				t.Errorf("got %q want %q", got, tc.want)
			}
		})
	}
}

func TestResourceEventHandlerFuncsNilSafe(t *testing.T) {
	var h ResourceEventHandler = ResourceEventHandlerFuncs{}
	h.OnAdd(pod("", "a", "", nil), false)
	h.OnUpdate(nil, nil)
	h.OnDelete(nil)
	added := false
	h = ResourceEventHandlerDetailedFuncs{AddFunc: func(_ interface{}, initial bool) { added = initial }}
	h.OnAdd(nil, true)
	if !added {
		t.Error("detailed AddFunc not called with isInInitialList")
	}
}

// callRecorder logs the calls of every handler flavour in one format.
type callRecorder struct{ calls []string }

func (r *callRecorder) record(format string, args ...interface{}) {
	r.calls = append(r.calls, fmt.Sprintf(format, args...))
}

func podName(obj interface{}) string {
	if p, ok := obj.(*v1.Pod); ok && p != nil {
		return p.Name
	}
	return fmt.Sprint(obj)
}

// TestEventHandlerFlavours drives each handler type of this package with
// the same calls and compares what reaches the functions.
func TestEventHandlerFlavours(t *testing.T) {
	a, b := pod("ns", "a", "1", map[string]string{"pass": "y"}), pod("ns", "b", "2", nil)
	tombstone := DeletedFinalStateUnknown{Key: "ns/a", Obj: a}
	passes := func(obj *v1.Pod) bool { return obj != nil && obj.Labels["pass"] == "y" }
	type handlers struct {
		untyped ResourceEventHandler
		typed   TypedResourceEventHandler[*v1.Pod]
	}
	build := map[string]func(r *callRecorder) handlers{
		"Funcs": func(r *callRecorder) handlers {
			return handlers{
				untyped: ResourceEventHandlerFuncs{
					AddFunc:    func(obj interface{}) { r.record("add %s", podName(obj)) },
					UpdateFunc: func(o, n interface{}) { r.record("update %s->%s", podName(o), podName(n)) },
					DeleteFunc: func(obj interface{}) { r.record("delete %s", podName(obj)) },
				},
				typed: TypedResourceEventHandlerFuncs[*v1.Pod]{
					AddFunc:    func(obj *v1.Pod) { r.record("add %s", obj.Name) },
					UpdateFunc: func(o, n *v1.Pod) { r.record("update %s->%s", o.Name, n.Name) },
					DeleteFunc: func(d DeletedObject[*v1.Pod]) { r.record("delete %s", podName(d.OptionalObj)) },
				},
			}
		},
		"DetailedFuncs": func(r *callRecorder) handlers {
			return handlers{
				untyped: ResourceEventHandlerDetailedFuncs{
					AddFunc:    func(obj interface{}, initial bool) { r.record("add %s initial=%v", podName(obj), initial) },
					UpdateFunc: func(o, n interface{}) { r.record("update %s->%s", podName(o), podName(n)) },
					DeleteFunc: func(obj interface{}) { r.record("delete %s", podName(obj)) },
				},
				typed: TypedResourceEventHandlerDetailedFuncs[*v1.Pod]{
					AddFunc:    func(obj *v1.Pod, initial bool) { r.record("add %s initial=%v", obj.Name, initial) },
					UpdateFunc: func(o, n *v1.Pod) { r.record("update %s->%s", o.Name, n.Name) },
					DeleteFunc: func(d DeletedObject[*v1.Pod]) { r.record("delete %s", podName(d.OptionalObj)) },
				},
			}
		},
	}
	for _, tc := range []struct {
		flavour string
		call    func(h handlers, typed bool)
		want    string
	}{
		{"Funcs", func(h handlers, typed bool) {
			if typed {
				h.typed.OnAdd(a, true)
				h.typed.OnUpdate(a, b)
				h.typed.OnDelete(DeletedObject[*v1.Pod]{OptionalObj: b})
				return
			}
			h.untyped.OnAdd(a, true)
			h.untyped.OnUpdate(a, b)
			h.untyped.OnDelete(b)
		}, "add a;update a->b;delete b"},
		{"DetailedFuncs", func(h handlers, typed bool) {
			if typed {
				h.typed.OnAdd(a, true)
				h.typed.OnAdd(b, false)
				h.typed.OnUpdate(b, a)
				h.typed.OnDelete(DeletedObject[*v1.Pod]{OptionalObj: a})
				return
			}
			h.untyped.OnAdd(a, true)
			h.untyped.OnAdd(b, false)
			h.untyped.OnUpdate(b, a)
			h.untyped.OnDelete(a)
		}, "add a initial=true;add b initial=false;update b->a;delete a"},
	} {
		for _, typed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/typed=%v", tc.flavour, typed), func(t *testing.T) {
				r := &callRecorder{}
				tc.call(build[tc.flavour](r), typed)
				if got := strings.Join(r.calls, ";"); got != tc.want {
					t.Errorf("calls %q, want %q", got, tc.want)
				}
			})
		}
	}

	t.Run("unset functions are skipped", func(t *testing.T) {
		for _, h := range []ResourceEventHandler{ResourceEventHandlerFuncs{}, ResourceEventHandlerDetailedFuncs{}} {
			h.OnAdd(a, true)
			h.OnUpdate(a, b)
			h.OnDelete(tombstone)
		}
		for _, h := range []TypedResourceEventHandler[*v1.Pod]{TypedResourceEventHandlerFuncs[*v1.Pod]{}, TypedResourceEventHandlerDetailedFuncs[*v1.Pod]{}} {
			h.OnAdd(a, true)
			h.OnUpdate(a, b)
			h.OnDelete(DeletedObject[*v1.Pod]{})
		}
	})

	// The filtering handlers: events for objects that pass go through; an
	// update across the filter becomes an add or a delete.
	for _, tc := range []struct {
		name     string
		event    string // add, update or delete
		old, obj *v1.Pod
		want     string
	}{
		{"add passing", "add", nil, a, "add a initial=true"},
		{"add filtered out", "add", nil, b, ""},
		{"update into the filter", "update", b, a, "add a initial=false"},
		{"update out of the filter", "update", a, b, "delete a"},
		{"update within", "update", a, a, "update a->a"},
		{"update outside", "update", b, b, ""},
		{"delete passing", "delete", nil, a, "delete a"},
		{"delete filtered out", "delete", nil, b, ""},
	} {
		for _, typed := range []bool{false, true} {
			t.Run(fmt.Sprintf("Filtering/%s/typed=%v", tc.name, typed), func(t *testing.T) {
				r := &callRecorder{}
				h := build["DetailedFuncs"](r)
				untyped := FilteringResourceEventHandler{
					FilterFunc: func(obj interface{}) bool { return passes(obj.(*v1.Pod)) },
					Handler:    h.untyped,
				}
				typedHandler := TypedFilteringResourceEventHandler[*v1.Pod]{FilterFunc: passes, Handler: h.typed}
				switch {
				case tc.event == "add" && typed:
					typedHandler.OnAdd(tc.obj, true)
				case tc.event == "add":
					untyped.OnAdd(tc.obj, true)
				case tc.event == "update" && typed:
					typedHandler.OnUpdate(tc.old, tc.obj)
				case tc.event == "update":
					untyped.OnUpdate(tc.old, tc.obj)
				case typed:
					typedHandler.OnDelete(DeletedObject[*v1.Pod]{OptionalObj: tc.obj})
				default:
					untyped.OnDelete(tc.obj)
				}
				if got := strings.Join(r.calls, ";"); got != tc.want {
					t.Errorf("calls %q, want %q", got, tc.want)
				}
			})
		}
	}
}
