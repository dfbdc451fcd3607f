package cache

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

func TestProcessorListenerSurvivesHandlerPanic(t *testing.T) {
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
}
