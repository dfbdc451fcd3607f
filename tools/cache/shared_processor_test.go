package cache

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// processorRig is a running sharedProcessor whose listeners record what
// reaches their handlers.
type processorRig struct {
	p    *sharedProcessor
	logs map[string]*eventLog
	stop func()
}

// startProcessor runs a sharedProcessor, on the real clock, with one
// listener per name and resync period.
func startProcessor(names []string, periods []time.Duration) *processorRig {
	rig := &processorRig{p: &sharedProcessor{clock: clock.RealClock{}, listeners: map[*processorListener]bool{}}, logs: map[string]*eventLog{}}
	for i, name := range names {
		log := &eventLog{}
		rig.logs[name] = log
		rig.p.addListener(newProcessListener(klog.Background(), log, periods[i], periods[i], time.Now(), name))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); rig.p.run(ctx) }()
	rig.stop = func() { cancel(); <-done }
	return rig
}

// received lists, for each name, the events its handler got.
func (rig *processorRig) received(names []string) string {
	var parts []string
	for _, name := range names {
		parts = append(parts, name+"="+strings.Join(rig.logs[name].snapshot(), ","))
	}
	return strings.Join(parts, " ")
}

// TestSharedProcessorResyncs moves a synctest bubble's clock and asks the
// processor, as the reflector does every check period, which listeners are
// due for a resync: only those get the resync's notifications, every
// listener gets the others.
func TestSharedProcessorResyncs(t *testing.T) {
	names := []string{"every-second", "never", "every-3s"}
	periods := []time.Duration{time.Second, 0, 3 * time.Second}
	steps := []struct {
		after   time.Duration // the bubble's clock moves so far first
		wantDue bool
		want    string // what every handler got so far
	}{
		{after: 500 * time.Millisecond, wantDue: false,
			want: "every-second= never= every-3s="},
		{after: 500 * time.Millisecond, wantDue: true,
			want: "every-second=update a never= every-3s="},
		{after: time.Second, wantDue: true,
			want: "every-second=update a,update a never= every-3s="},
		{after: time.Second, wantDue: true,
			want: "every-second=update a,update a,update a never= every-3s=update a"},
	}
	inBubble(func(t *testing.T) {
		rig := startProcessor(names, periods)
		defer rig.stop()
		for i, step := range steps {
			time.Sleep(step.after)
			if due := rig.p.shouldResync(); due != step.wantDue {
				t.Errorf("step %d: shouldResync = %v, want %v", i, due, step.wantDue)
			}
			rig.p.distribute(notification{kind: updateKind, oldObj: pod("ns", "a", "1", nil), newObj: pod("ns", "a", "1", nil)}, true)
			settled(t, fmt.Sprintf("step %d: %s", i, step.want), func() bool { return rig.received(names) == step.want })
		}
		rig.p.distribute(notification{kind: addKind, newObj: pod("ns", "b", "2", nil)}, false)
		settled(t, "a change reaches every listener", func() bool {
			for _, name := range names {
				if events := rig.logs[name].snapshot(); len(events) == 0 || events[len(events)-1] != "add b initial=false" {
					return false
				}
			}
			return true
		})
	})(t)
}

// TestSharedProcessorListenerLifecycle: a listener added to a running
// processor starts at once, a removed one gets nothing more, and one added
// after the processor stopped is stopped too.
func TestSharedProcessorListenerLifecycle(t *testing.T) {
	inBubble(func(t *testing.T) {
		rig := startProcessor([]string{"first"}, []time.Duration{0})
		late := &eventLog{}
		lateListener := newProcessListener(klog.Background(), late, 0, 0, time.Now(), "late")
		rig.p.addListener(lateListener)
		rig.p.distribute(notification{kind: addKind, newObj: pod("ns", "a", "1", nil)}, false)
		settled(t, "the late listener runs", func() bool { return len(late.snapshot()) == 1 })

		rig.p.removeListener(lateListener)
		rig.p.removeListener(lateListener) // a no-op
		rig.p.distribute(notification{kind: addKind, newObj: pod("ns", "b", "2", nil)}, false)
		settled(t, "a removed listener gets nothing", func() bool {
			return len(late.snapshot()) == 1 && len(rig.logs["first"].snapshot()) == 2
		})
		select {
		case <-lateListener.done:
		default:
			t.Error("the removed listener did not stop")
		}

		rig.stop()
		afterStop := newProcessListener(klog.Background(), &eventLog{}, 0, 0, time.Now(), "after-stop")
		rig.p.addListener(afterStop)
		select {
		case <-afterStop.done:
		default:
			t.Error("a listener added after the processor stopped was left running")
		}
	})(t)
}

// TestSharedProcessorUpstreamSynced: a registration has synced once the
// informer has and its handler has seen the initial list.
func TestSharedProcessorUpstreamSynced(t *testing.T) {
	inBubble(func(t *testing.T) {
		rig := startProcessor([]string{"h"}, []time.Duration{0})
		defer rig.stop()
		var l *processorListener
		for listener := range rig.p.listeners {
			l = listener
		}
		rig.p.distribute(notification{kind: addKind, newObj: pod("ns", "a", "1", nil), initial: true}, false)
		settled(t, "the initial add is handled", func() bool { return len(rig.logs["h"].snapshot()) == 1 })
		if l.HasSynced() {
			t.Error("synced before the informer")
		}
		rig.p.upstreamSynced()
		settled(t, "synced with the informer", l.HasSynced)
	})(t)
}

func TestDetermineResyncPeriod(t *testing.T) {
	tests := []struct {
		desired, check, want time.Duration
	}{
		{desired: 0, check: time.Second, want: 0},
		{desired: time.Minute, check: 0, want: 0},
		{desired: time.Second, check: time.Minute, want: time.Minute},
		{desired: time.Hour, check: time.Minute, want: time.Hour},
	}
	for _, tc := range tests {
		if got := determineResyncPeriod(tc.desired, tc.check); got != tc.want {
			t.Errorf("determineResyncPeriod(%v, %v) = %v, want %v", tc.desired, tc.check, got, tc.want)
		}
	}
}
