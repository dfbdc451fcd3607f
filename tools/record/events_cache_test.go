package record

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"
)

func testEvent(reason, message string) *v1.Event {
	now := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return &v1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "pod1.1", Namespace: "ns"},
		InvolvedObject: v1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "pod1", UID: "uid1", APIVersion: "v1"},
		Reason:         reason,
		Message:        message,
		Source:         v1.EventSource{Component: "kubelet", Host: "node1"},
		Count:          1,
		Type:           v1.EventTypeNormal,
		FirstTimestamp: now,
		LastTimestamp:  now,
	}
}

func TestCorrelatorCountsRepeatsWithPatch(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := NewEventCorrelator(clk)
	first, err := c.EventCorrelate(testEvent("Started", "started container"))
	if err != nil || first.Skip || first.Patch != nil || first.Event.Count != 1 {
		t.Fatalf("first event: %+v, %v", first, err)
	}
	// The server stored it under its own name and version.
	stored := first.Event.DeepCopy()
	stored.Name, stored.ResourceVersion = "stored-name", "42"
	c.UpdateState(stored)

	clk.Step(time.Minute)
	again := testEvent("Started", "started container")
	again.LastTimestamp = metav1.NewTime(clk.Now())
	second, err := c.EventCorrelate(again)
	if err != nil || second.Skip {
		t.Fatalf("repeat: %+v, %v", second, err)
	}
	if second.Event.Count != 2 || second.Event.Name != "stored-name" || second.Event.ResourceVersion != "42" {
		t.Errorf("repeat event count=%d name=%q rv=%q, want 2, stored-name, 42", second.Event.Count, second.Event.Name, second.Event.ResourceVersion)
	}
	var patch map[string]interface{}
	if err := json.Unmarshal(second.Patch, &patch); err != nil {
		t.Fatalf("patch %s: %v", second.Patch, err)
	}
	if patch["count"] != float64(2) || patch["message"] != "started container" || patch["lastTimestamp"] == nil {
		t.Errorf("patch %s, want count, message and lastTimestamp", second.Patch)
	}
	if _, ok := patch["reason"]; ok {
		t.Errorf("patch %s carries unchanged fields", second.Patch)
	}
}

func TestCorrelatorAggregatesSimilarEvents(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := NewEventCorrelatorWithOptions(CorrelatorOptions{Clock: clk, BurstSize: 100})
	var last *EventCorrelateResult
	for i := 0; i < defaultAggregateMaxEvents; i++ {
		r, err := c.EventCorrelate(testEvent("BackOff", fmt.Sprintf("attempt %d", i)))
		if err != nil || r.Skip {
			t.Fatalf("event %d: %+v, %v", i, r, err)
		}
		if i < defaultAggregateMaxEvents-1 && strings.HasPrefix(r.Event.Message, "(combined") {
			t.Fatalf("event %d aggregated too early", i)
		}
		last = r
	}
	if last.Event.Message != "(combined from similar events): attempt 9" || last.Event.Count != 1 {
		t.Fatalf("10th similar event: message %q count %d", last.Event.Message, last.Event.Count)
	}
	next, _ := c.EventCorrelate(testEvent("BackOff", "attempt 10"))
	if next.Event.Count != 2 || next.Patch == nil || next.Event.Name != last.Event.Name {
		t.Errorf("11th similar event: count %d name %q patch %s, want the aggregate updated", next.Event.Count, next.Event.Name, next.Patch)
	}
	// After the interval passes, a similar event starts afresh.
	clk.Step(11 * time.Minute)
	fresh, _ := c.EventCorrelate(testEvent("BackOff", "attempt 11"))
	if strings.HasPrefix(fresh.Event.Message, "(combined") {
		t.Errorf("event after the aggregation interval still aggregated: %q", fresh.Event.Message)
	}
}

func TestSpamFilterTokenBucket(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := NewEventCorrelatorWithOptions(CorrelatorOptions{Clock: clk, BurstSize: 3, QPS: 1})
	for i := 0; i < 3; i++ {
		if r, _ := c.EventCorrelate(testEvent("R", fmt.Sprint(i))); r.Skip {
			t.Fatalf("event %d within the burst was skipped", i)
		}
	}
	if r, _ := c.EventCorrelate(testEvent("R", "over")); !r.Skip {
		t.Fatal("event past the burst was not skipped")
	}
	other := testEvent("R", "other object")
	other.InvolvedObject.Name = "pod2"
	if r, _ := c.EventCorrelate(other); r.Skip {
		t.Error("another object's event was skipped: budgets must be per object")
	}
	clk.Step(time.Second)
	if r, _ := c.EventCorrelate(testEvent("R", "refilled")); r.Skip {
		t.Error("event after a refill was skipped")
	}
	if _, err := c.EventCorrelate(nil); err == nil {
		t.Error("EventCorrelate(nil) returned no error")
	}

	f := NewEventSourceObjectSpamFilter(10, 1, 0.001, clk, func(*v1.Event) string { return "one key" })
	if f.Filter(testEvent("a", "a")) || !f.Filter(other) {
		t.Error("custom spam key func not used")
	}
}

func TestAggregatorKeyFuncs(t *testing.T) {
	e := testEvent("Reason", "msg")
	agg, local := EventAggregatorByReasonFunc(e)
	if local != "msg" || !strings.Contains(agg, "Reason") || strings.Contains(agg, "msg") {
		t.Errorf("EventAggregatorByReasonFunc = %q, %q", agg, local)
	}
	if got := EventAggregatorByReasonMessageFunc(e); got != "(combined from similar events): msg" {
		t.Errorf("EventAggregatorByReasonMessageFunc = %q", got)
	}
	a := NewEventAggregator(2, EventAggregatorByReasonFunc, EventAggregatorByReasonMessageFunc, 2, 600, testingclock.NewFakeClock(time.Now()))
	a.EventAggregate(testEvent("X", "1"))
	out, key := a.EventAggregate(testEvent("X", "2"))
	if !strings.HasPrefix(out.Message, "(combined") || key == getEventKey(testEvent("X", "2")) {
		t.Errorf("aggregate with maxEvents=2: %q key %q", out.Message, key)
	}
}

func TestLRUCacheEvicts(t *testing.T) {
	c := newLRUCache[int](2)
	c.Add("a", 1)
	c.Add("b", 2)
	c.Get("a")
	c.Add("c", 3)
	if _, ok := c.Get("b"); ok {
		t.Error("least recently used entry not evicted")
	}
	if v, ok := c.Get("a"); !ok || v != 1 || c.Len() != 2 {
		t.Error("recently used entry evicted")
	}
}
