package cache

import (
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
