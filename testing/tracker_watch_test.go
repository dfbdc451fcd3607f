package testing

import (
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

func TestWatchStartingPoints(t *testing.T) {
	tests := []struct {
		name string
		// opts nil: Watch without options.
		opts func(listRV string) []metav1.ListOptions
		want []eventSummary
	}{
		{
			name: "no options: only changes from now on",
			opts: func(string) []metav1.ListOptions { return nil },
			want: []eventSummary{{"MODIFIED", "a"}, {"ADDED", "sentinel"}},
		},
		{
			name: "empty resourceVersion: current state then changes",
			opts: func(string) []metav1.ListOptions { return []metav1.ListOptions{{}} },
			want: []eventSummary{{"ADDED", "a"}, {"ADDED", "b"}, {"MODIFIED", "a"}, {"ADDED", "sentinel"}},
		},
		{
			name: "resourceVersion of the list: every write after it",
			opts: func(rv string) []metav1.ListOptions { return []metav1.ListOptions{{ResourceVersion: rv}} },
			want: []eventSummary{{"ADDED", "b"}, {"MODIFIED", "a"}, {"ADDED", "sentinel"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTestTracker(t)
			must(t, tr.Create(podsGVR, pod("ns", "a"), "ns"))
			list, err := tr.List(podsGVR, podKind, "ns")
			must(t, err)
			listRV := list.(*corev1.PodList).ResourceVersion
			// A write between the list and the watch, as in an informer.
			must(t, tr.Create(podsGVR, pod("ns", "b"), "ns"))

			w, err := tr.Watch(podsGVR, "ns", tc.opts(listRV)...)
			must(t, err)
			defer w.Stop()
			a := mustGet(t, tr, podsGVR, "ns", "a").(*corev1.Pod)
			a.Labels = map[string]string{"v": "2"}
			must(t, tr.Update(podsGVR, a, "ns"))
			must(t, tr.Create(podsGVR, pod("ns", "sentinel"), "ns"))

			if got := nextEvents(t, w, len(tc.want)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("events = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestWatchReplaysEveryChangeInOrder(t *testing.T) {
	tr := newTestTracker(t)
	must(t, tr.Create(configMapsGVR, configMap("ns", "x", nil), "ns"))
	start := strconv.FormatInt(rvOf(t, mustGet(t, tr, configMapsGVR, "ns", "x")), 10)

	var want []eventSummary
	for i := 0; i < 5; i++ {
		c := mustGet(t, tr, configMapsGVR, "ns", "x").(*corev1.ConfigMap)
		c.Data = map[string]string{"i": strconv.Itoa(i)}
		must(t, tr.Update(configMapsGVR, c, "ns"))
		want = append(want, eventSummary{"MODIFIED", "x"})
	}
	must(t, tr.Delete(configMapsGVR, "ns", "x"))
	want = append(want, eventSummary{"DELETED", "x"})

	w, err := tr.Watch(configMapsGVR, "ns", metav1.ListOptions{ResourceVersion: start})
	must(t, err)
	defer w.Stop()
	var lastRV int64
	for i := range want {
		ev := <-w.ResultChan()
		if ev.Type != want[i].Type {
			t.Fatalf("event %d = %s, want %s", i, ev.Type, want[i].Type)
		}
		rv := rvOf(t, ev.Object)
		if rv <= lastRV {
			t.Fatalf("event %d resourceVersion %d not above %d", i, rv, lastRV)
		}
		lastRV = rv
	}
}

func TestWatchTooOldResourceVersion(t *testing.T) {
	tr := newTestTracker(t)
	tr.sem.(*serverSemantics).historyLimit = 4
	must(t, tr.Create(configMapsGVR, configMap("ns", "x", nil), "ns"))
	first := rvOf(t, mustGet(t, tr, configMapsGVR, "ns", "x"))
	for i := 0; i < 10; i++ {
		c := mustGet(t, tr, configMapsGVR, "ns", "x").(*corev1.ConfigMap)
		c.Data = map[string]string{"i": strconv.Itoa(i)}
		must(t, tr.Update(configMapsGVR, c, "ns"))
	}
	_, err := tr.Watch(configMapsGVR, "ns", metav1.ListOptions{ResourceVersion: strconv.FormatInt(first, 10)})
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Fatalf("watch from a compacted version: error = %v, want 410 Expired", err)
	}
	if code := err.(apierrors.APIStatus).Status().Code; code != 410 {
		t.Errorf("status code = %d, want 410", code)
	}
	// The newest version is still watchable.
	latest := strconv.FormatInt(rvOf(t, mustGet(t, tr, configMapsGVR, "ns", "x")), 10)
	w, err := tr.Watch(configMapsGVR, "ns", metav1.ListOptions{ResourceVersion: latest})
	must(t, err)
	w.Stop()

	if _, err := tr.Watch(configMapsGVR, "ns", metav1.ListOptions{ResourceVersion: "abc"}); !apierrors.IsBadRequest(err) {
		t.Errorf("non-numeric resourceVersion: error = %v, want BadRequest", err)
	}
}

func TestWatchSelectorsTranslateEvents(t *testing.T) {
	tr := newTestTracker(t)
	w, err := tr.Watch(podsGVR, "", metav1.ListOptions{FieldSelector: "spec.nodeName=n1", LabelSelector: "app=web"})
	must(t, err)
	defer w.Stop()

	p := pod("ns", "p")
	p.Labels = map[string]string{"app": "web"}
	must(t, tr.Create(podsGVR, p, "ns")) // unscheduled: not selected
	p = mustGet(t, tr, podsGVR, "ns", "p").(*corev1.Pod)
	p.Spec.NodeName = "n1"
	must(t, tr.Update(podsGVR, p, "ns")) // enters the selection: ADDED
	p = mustGet(t, tr, podsGVR, "ns", "p").(*corev1.Pod)
	p.Annotations = map[string]string{"touch": "1"}
	must(t, tr.Update(podsGVR, p, "ns")) // MODIFIED
	p = mustGet(t, tr, podsGVR, "ns", "p").(*corev1.Pod)
	p.Labels["app"] = "db"
	must(t, tr.Update(podsGVR, p, "ns")) // leaves it: DELETED
	other := pod("ns", "other")          // never selected
	must(t, tr.Create(podsGVR, other, "ns"))
	sentinel := pod("ns", "sentinel")
	sentinel.Labels = map[string]string{"app": "web"}
	sentinel.Spec.NodeName = "n1"
	must(t, tr.Create(podsGVR, sentinel, "ns"))

	want := []eventSummary{{"ADDED", "p"}, {"MODIFIED", "p"}, {"DELETED", "p"}, {"ADDED", "sentinel"}}
	if got := nextEvents(t, w, len(want)); !reflect.DeepEqual(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
}

func TestWatchNamespaceScope(t *testing.T) {
	tr := newTestTracker(t)
	inA, err := tr.Watch(configMapsGVR, "a")
	must(t, err)
	defer inA.Stop()
	all, err := tr.Watch(configMapsGVR, "")
	must(t, err)
	defer all.Stop()
	must(t, tr.Create(configMapsGVR, configMap("b", "x", nil), "b"))
	must(t, tr.Create(configMapsGVR, configMap("a", "y", nil), "a"))
	if got, want := nextEvents(t, inA, 1), []eventSummary{{"ADDED", "y"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("namespace a events = %v, want %v", got, want)
	}
	if got, want := nextEvents(t, all, 2), []eventSummary{{"ADDED", "x"}, {"ADDED", "y"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("all-namespace events = %v, want %v", got, want)
	}
}

func TestWatchNeverBlocksWriters(t *testing.T) {
	tr := newTestTracker(t)
	w, err := tr.Watch(configMapsGVR, "ns")
	must(t, err)
	defer w.Stop()
	idle, err := tr.Watch(configMapsGVR, "ns") // never read
	must(t, err)
	defer idle.Stop()

	const n = 2000 // far beyond any channel buffer
	for i := 0; i < n; i++ {
		must(t, tr.Create(configMapsGVR, configMap("ns", fmt.Sprintf("c%04d", i), nil), "ns"))
	}
	got := nextEvents(t, w, n)
	for i, ev := range got {
		if want := fmt.Sprintf("c%04d", i); ev.Name != want || ev.Type != watch.Added {
			t.Fatalf("event %d = %v, want ADDED %s", i, ev, want)
		}
	}
}

func TestWatchStop(t *testing.T) {
	tr := newTestTracker(t)
	w, err := tr.Watch(configMapsGVR, "ns", metav1.ListOptions{})
	must(t, err)
	must(t, tr.Create(configMapsGVR, configMap("ns", "pending", nil), "ns"))

	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Stop()
		}()
	}
	wg.Wait()
	for range w.ResultChan() {
		// Drain until the channel is closed; pending events may be dropped.
	}
	// Writes after Stop must not reach (or block on) the stopped watcher.
	must(t, tr.Create(configMapsGVR, configMap("ns", "after", nil), "ns"))
	tr.mu.Lock()
	n := len(tr.resources[configMapsGVR].watchers)
	tr.mu.Unlock()
	if n != 0 {
		t.Errorf("%d watchers still registered after Stop", n)
	}
}

// TestListThenWatchNeverMissesWrites runs the informer pattern against
// concurrent writers: every write made after the list is seen by the watch.
func TestListThenWatchNeverMissesWrites(t *testing.T) {
	tr := newTestTracker(t)
	const writers, perWriter = 4, 50
	start := make(chan struct{})
	var wg sync.WaitGroup
	for wi := 0; wi < writers; wi++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := 0; i < perWriter; i++ {
				if err := tr.Create(configMapsGVR, configMap("ns", fmt.Sprintf("w%d-%d", wi, i), nil), "ns"); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	close(start)
	list, err := tr.List(configMapsGVR, configMapKind, "ns")
	must(t, err)
	seen := map[string]bool{}
	for _, c := range list.(*corev1.ConfigMapList).Items {
		seen[c.Name] = true
	}
	w, err := tr.Watch(configMapsGVR, "ns", metav1.ListOptions{ResourceVersion: list.(*corev1.ConfigMapList).ResourceVersion})
	must(t, err)
	defer w.Stop()
	wg.Wait()
	timeout := time.After(10 * time.Second)
	for len(seen) < writers*perWriter {
		var ev watch.Event
		select {
		case ev = <-w.ResultChan():
		case <-timeout:
			t.Fatalf("saw %d of %d objects", len(seen), writers*perWriter)
		}
		c := ev.Object.(*corev1.ConfigMap)
		if seen[c.Name] {
			t.Fatalf("%s delivered by both the list and the watch", c.Name)
		}
		seen[c.Name] = true
	}
}

func TestWatchStreamingList(t *testing.T) {
	tests := []struct {
		name    string
		seed    bool
		wantObj string // Go type of the bookmark object
	}{
		{"with objects", true, "*v1.Pod"},
		{"empty resource", false, "*v1.Pod"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTestTracker(t)
			if tc.seed {
				must(t, tr.Create(podsGVR, pod("ns", "a"), "ns"))
			}
			w, err := tr.Watch(podsGVR, "", metav1.ListOptions{SendInitialEvents: ptr.To(true), AllowWatchBookmarks: true, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan})
			must(t, err)
			defer w.Stop()
			if tc.seed {
				if ev := <-w.ResultChan(); ev.Type != watch.Added {
					t.Fatalf("first event %s, want ADDED", ev.Type)
				}
			}
			ev := <-w.ResultChan()
			if ev.Type != watch.Bookmark || fmt.Sprintf("%T", ev.Object) != tc.wantObj {
				t.Fatalf("got %s %T, want a BOOKMARK %s", ev.Type, ev.Object, tc.wantObj)
			}
			m, _ := meta.Accessor(ev.Object)
			if m.GetAnnotations()[metav1.InitialEventsAnnotationKey] != "true" || m.GetResourceVersion() != strconv.FormatInt(tr.sem.version(nil), 10) {
				t.Errorf("bookmark metadata = %+v", m)
			}
		})
	}
}
