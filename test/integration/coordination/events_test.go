package coordination

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/tools/events"
)

// writeLog records the write requests (anything but GET) sent through a
// configuration it was attached to, and how many requests are in flight.
type writeLog struct {
	mu       sync.Mutex
	writes   []string // "METHOD /path"
	inFlight int
}

// wrap is a transport.WrapperFunc that records into w.
func (w *writeLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		w.mu.Lock()
		w.inFlight++
		if req.Method != http.MethodGet {
			w.writes = append(w.writes, req.Method+" "+req.URL.Path)
		}
		w.mu.Unlock()
		defer func() {
			w.mu.Lock()
			w.inFlight--
			w.mu.Unlock()
		}()
		return rt.RoundTrip(req)
	})
}

// settled returns the writes once no request is in flight.
func (w *writeLog) settled(ctx context.Context, t *testing.T) []string {
	t.Helper()
	var writes []string
	err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, waitTimeout, true, func(context.Context) (bool, error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		writes = append([]string(nil), w.writes...)
		return w.inFlight == 0, nil
	})
	if err != nil {
		t.Fatalf("event writes still in flight: %v", err)
	}
	return writes
}

// TestEventsV1Series records events.k8s.io/v1 events about a ConfigMap
// through tools/events and checks what the server holds.
//
// An event isomorphic to one already written (same regarding and related
// object, reason, action, type and reporting controller and instance; the
// note may differ) starts a series: the broadcaster patches the stored
// event once with series.count 2. Later repeats only raise the count in the
// broadcaster's memory; like client-go it writes that count every 30
// minutes, or when the series has been quiet for 6 minutes, neither of which
// a test can wait for. So the test checks what is deterministic: count 2 on
// the server after the first repeat, and no write at all for further
// repeats. The first repeat is recorded only once the first event is on the
// server: the event and its series update are written by separate
// goroutines, and a series patch that overtakes the create finds nothing to
// patch.
func TestEventsV1Series(t *testing.T) {
	hostname, err := os.Hostname()
	if err != nil {
		t.Fatalf("os.Hostname: %v", err)
	}
	tests := []struct {
		name string
		// start starts writing to the sink and returns the function that
		// stops it.
		start func(ctx context.Context, t *testing.T, b events.EventBroadcaster) (stop func())
	}{{
		name: "StartRecordingToSinkWithContext",
		start: func(ctx context.Context, t *testing.T, b events.EventBroadcaster) func() {
			ctx, cancel := context.WithCancel(ctx)
			if err := b.StartRecordingToSinkWithContext(ctx); err != nil {
				t.Fatalf("StartRecordingToSinkWithContext: %v", err)
			}
			return cancel
		},
	}, {
		name: "StartRecordingToSink",
		start: func(_ context.Context, _ *testing.T, b events.EventBroadcaster) func() {
			stopCh := make(chan struct{})
			b.StartRecordingToSink(stopCh)
			return func() { close(stopCh) }
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			framework.DumpLogsOnFailure(t, controlPlane)
			ctx := testContext(t)
			ns := controlPlane.Namespace(t)
			cs := newClientset(t, nil)
			cm := createConfigMap(ctx, t, cs, ns, "regarded")

			writes := &writeLog{}
			sinkConfig := controlPlane.AdminConfig()
			sinkConfig.Wrap(writes.wrap)
			broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: newClientset(t, sinkConfig).EventsV1()})
			defer broadcaster.Shutdown()
			stop := tt.start(ctx, t, broadcaster)
			defer stop()
			const controller = "coordination-test-controller"
			recorder := broadcaster.NewRecorder(scheme.Scheme, controller)

			recorder.Eventf(cm, nil, corev1.EventTypeWarning, "FailedSync", "Sync", "sync of %s failed: %s", cm.Name, "timeout")
			ev := waitEventsV1(ctx, t, cs, ns, cm.UID, func(ev *eventsv1.Event) bool { return true })
			wantRegarding := corev1.ObjectReference{
				Kind:            "ConfigMap",
				APIVersion:      "v1",
				Namespace:       ns,
				Name:            cm.Name,
				UID:             cm.UID,
				ResourceVersion: cm.ResourceVersion,
			}
			if ev.Regarding != wantRegarding {
				t.Errorf("regarding %+v, want %+v", ev.Regarding, wantRegarding)
			}
			if ev.Related != nil {
				t.Errorf("related %+v, want none", ev.Related)
			}
			if ev.Namespace != ns || ev.Reason != "FailedSync" || ev.Action != "Sync" || ev.Type != corev1.EventTypeWarning ||
				ev.Note != "sync of regarded failed: timeout" {
				t.Errorf("event %s/%s: reason %q, action %q, type %q, note %q; want FailedSync, Sync, Warning, %q in %s",
					ev.Namespace, ev.Name, ev.Reason, ev.Action, ev.Type, ev.Note, "sync of regarded failed: timeout", ns)
			}
			if ev.ReportingController != controller || ev.ReportingInstance != controller+"-"+hostname {
				t.Errorf("reportingController %q, reportingInstance %q; want %q, %q", ev.ReportingController, ev.ReportingInstance, controller, controller+"-"+hostname)
			}
			if ev.EventTime.IsZero() || ev.Series != nil {
				t.Errorf("eventTime %v, series %+v; want a time and no series", ev.EventTime, ev.Series)
			}

			// An isomorphic event (only the note differs) turns the stored
			// event into a series of two.
			recorder.Eventf(cm, nil, corev1.EventTypeWarning, "FailedSync", "Sync", "sync of %s failed: %s", cm.Name, "conflict")
			series := waitEventsV1(ctx, t, cs, ns, cm.UID, func(ev *eventsv1.Event) bool { return ev.Series != nil })
			if series.Name != ev.Name {
				t.Errorf("the series is event %s, want the first event %s", series.Name, ev.Name)
			}
			if series.Series.Count != 2 || series.Series.LastObservedTime.Time.Before(ev.EventTime.Time) {
				t.Errorf("series %+v after one repeat: want count 2 observed at or after eventTime %v", series.Series, ev.EventTime)
			}

			// Further repeats are counted in memory only. A different event
			// about the same object is written next; once it is on the
			// server and nothing is in flight, the repeats had their turn.
			for range 3 {
				recorder.Eventf(cm, nil, corev1.EventTypeWarning, "FailedSync", "Sync", "sync of %s failed: %s", cm.Name, "conflict")
			}
			recorder.Eventf(cm, nil, corev1.EventTypeNormal, "Synced", "Sync", "synced %s", cm.Name)
			waitEventsV1(ctx, t, cs, ns, cm.UID, func(ev *eventsv1.Event) bool { return ev.Reason == "Synced" })
			eventsPath := fmt.Sprintf("/apis/events.k8s.io/v1/namespaces/%s/events", ns)
			got := writes.settled(ctx, t)
			want := []string{"POST " + eventsPath, "PATCH " + eventsPath + "/" + ev.Name, "POST " + eventsPath}
			if !slices.Equal(got, want) {
				t.Errorf("the sink sent %q, want %q (a create, one series patch, a create)", got, want)
			}
			all := eventsV1About(ctx, t, cs, ns, cm.UID)
			if len(all) != 2 {
				t.Errorf("%d events about the ConfigMap, want the series and the Synced event", len(all))
			}
			for _, e := range all {
				if e.Name == ev.Name && (e.Series == nil || e.Series.Count != 2) {
					t.Errorf("stored series %+v, want count 2 until the 30-minute refresh", e.Series)
				}
			}
		})
	}
}

// eventsV1About lists the events.k8s.io/v1 Events in ns regarding the
// object with uid.
func eventsV1About(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, uid types.UID) []eventsv1.Event {
	t.Helper()
	list, err := cs.EventsV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing events.k8s.io/v1 Events in %s: %v", ns, err)
	}
	var about []eventsv1.Event
	for _, ev := range list.Items {
		if ev.Regarding.UID == uid {
			about = append(about, ev)
		}
	}
	return about
}

// waitEventsV1 polls until an event regarding the object with uid matches
// and returns it.
func waitEventsV1(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, uid types.UID, match func(*eventsv1.Event) bool) *eventsv1.Event {
	t.Helper()
	var (
		found *eventsv1.Event
		seen  []eventsv1.Event
	)
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, waitTimeout, true, func(ctx context.Context) (bool, error) {
		seen = eventsV1About(ctx, t, cs, ns, uid)
		for i := range seen {
			if match(&seen[i]) {
				found = &seen[i]
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("waiting for an events.k8s.io/v1 Event about %s: %v (seen %+v)", uid, err, seen)
	}
	return found
}
