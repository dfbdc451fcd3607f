package cache

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

func TestProcessorListenerSurvivesHandlerPanic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		old := utilruntime.ReallyCrash
		utilruntime.ReallyCrash = false
		t.Cleanup(func() { utilruntime.ReallyCrash = old })

		delivered := make(chan string, 4)
		handler := ResourceEventHandlerFuncs{
			AddFunc: func(obj interface{}) {
				name := obj.(*v1.Pod).Name
				if name == "boom" {
					panic("handler failed")
				}
				delivered <- name
			},
		}
		l := newProcessListener(klog.Background(), handler, 0, 0, time.Now(), "test")
		go l.run()
		l.add(notification{kind: addKind, newObj: pod("ns", "boom", "1", nil)})
		l.add(notification{kind: addKind, newObj: pod("ns", "next", "2", nil)})

		select {
		case name := <-delivered:
			if name != "next" {
				t.Errorf("delivered %q, want next", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the notification after a panicking one was never delivered")
		}

		// A listener pausing after a panic still stops promptly.
		l.add(notification{kind: addKind, newObj: pod("ns", "boom", "3", nil)})
		l.add(notification{kind: addKind, newObj: pod("ns", "never", "4", nil)})
		l.stop(true)
		select {
		case <-l.done:
		case <-time.After(10 * time.Second):
			t.Fatal("listener did not stop")
		}
	})
}

// TestProcessorListenerDeliversInOrder: notifications queued faster than
// the handler runs arrive in order, the initial list marks the
// registration synced only after it was handled, and nothing queued after
// stop is delivered.
func TestProcessorListenerDeliversInOrder(t *testing.T) {
	release, lastDelivered := make(chan struct{}), make(chan struct{})
	var got []string
	handler := ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj interface{}, initial bool) {
			<-release
			got = append(got, fmt.Sprintf("add %s %v", obj.(*v1.Pod).Name, initial))
		},
		UpdateFunc: func(_, obj interface{}) { got = append(got, "update "+obj.(*v1.Pod).Name) },
		DeleteFunc: func(obj interface{}) {
			got = append(got, "delete "+obj.(*v1.Pod).Name)
			close(lastDelivered)
		},
	}
	l := newProcessListener(klog.Background(), handler, 0, 0, time.Now(), "test")
	const n = 3000 // more than the initial buffer
	l.add(notification{kind: addKind, newObj: pod("ns", "first", "1", nil), initial: true})
	l.syncTracker.UpstreamHasSynced()
	for i := range n {
		l.add(notification{kind: updateKind, oldObj: pod("ns", "x", "1", nil), newObj: pod("ns", strconv.Itoa(i), "1", nil)})
	}
	l.add(notification{kind: deleteKind, oldObj: pod("ns", "last", "1", nil)})
	if l.HasSynced() {
		t.Fatal("synced before the initial add was handled")
	}
	go l.run()
	close(release)
	if !WaitFor(context.Background(), "", l.HasSyncedChecker()) {
		t.Fatal("never synced")
	}
	<-lastDelivered
	l.stop(true)
	<-l.done
	l.add(notification{kind: addKind, newObj: pod("ns", "late", "1", nil)})
	if len(got) != n+2 || got[0] != "add first true" || got[n+1] != "delete last" {
		t.Fatalf("delivered %d notifications, first %q, last %q", len(got), got[0], got[len(got)-1])
	}
	for i := range n {
		if want := "update " + strconv.Itoa(i); got[i+1] != want {
			t.Fatalf("notification %d = %q, want %q", i+1, got[i+1], want)
		}
	}
}

// TestProcessorListenerStopBeforeRun: a listener that never ran is done at
// once when stopped.
func TestProcessorListenerStopBeforeRun(t *testing.T) {
	l := newProcessListener(klog.Background(), ResourceEventHandlerFuncs{}, 0, 0, time.Now(), "test")
	l.stop(false)
	<-l.done
	l.add(notification{kind: addKind, newObj: pod("ns", "a", "1", nil)})
	if len(l.pending) != 0 {
		t.Errorf("queued after stop: %d", len(l.pending))
	}
}
