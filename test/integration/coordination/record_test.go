package coordination

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedcorev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/tools/record"
)

// combinedPrefix starts the message of an event the correlator made out of
// similar events.
const combinedPrefix = "(combined from similar events): "

// TestRecordCoreEvents records events about ConfigMaps through a
// tools/record broadcaster writing to the core/v1 events API and checks the
// Events the server holds afterwards.
//
// The broadcaster handles events one at a time in the order they were
// recorded, writing each (with its retries) before it looks at the next.
// Every case therefore ends by recording a marker event about a ConfigMap of
// its own and waits for that to reach the server: by then every event the
// case recorded has been written or dropped, so the checks see the final
// state rather than polling for it.
func TestRecordCoreEvents(t *testing.T) {
	framework.DumpLogsOnFailure(t, controlPlane)
	ctx := testContext(t)
	ns := controlPlane.Namespace(t)
	cs := newClientset(t, nil)

	broadcaster := record.NewBroadcaster()
	defer broadcaster.Shutdown()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: cs.CoreV1().Events("")})
	source := corev1.EventSource{Component: "coordination-test", Host: "node-1"}
	recorder := broadcaster.NewRecorder(scheme.Scheme, source)

	tests := []struct {
		name   string
		record func(cm *corev1.ConfigMap)
		// check gets the Events about the case's ConfigMap.
		check func(t *testing.T, cm *corev1.ConfigMap, events []corev1.Event)
	}{{
		name: "one event",
		record: func(cm *corev1.ConfigMap) {
			recorder.Event(cm, corev1.EventTypeWarning, "InvalidKey", "key k is not allowed")
		},
		check: func(t *testing.T, cm *corev1.ConfigMap, events []corev1.Event) {
			if len(events) != 1 {
				t.Fatalf("%d Events about the ConfigMap, want 1: %v", len(events), summarize(events))
			}
			ev := events[0]
			checkInvolvedObject(t, ev, cm)
			if ev.Namespace != cm.Namespace {
				t.Errorf("Event created in namespace %q, want the ConfigMap's %q", ev.Namespace, cm.Namespace)
			}
			if ev.Reason != "InvalidKey" || ev.Message != "key k is not allowed" || ev.Type != corev1.EventTypeWarning {
				t.Errorf("Event reason %q, message %q, type %q; want InvalidKey, %q, Warning", ev.Reason, ev.Message, ev.Type, "key k is not allowed")
			}
			if ev.Source != source {
				t.Errorf("Event source %+v, want %+v", ev.Source, source)
			}
			if ev.ReportingController != source.Component || ev.ReportingInstance != source.Host {
				t.Errorf("Event reportingComponent %q, reportingInstance %q; want %q, %q", ev.ReportingController, ev.ReportingInstance, source.Component, source.Host)
			}
			if ev.Count != 1 || ev.FirstTimestamp.IsZero() || !ev.FirstTimestamp.Equal(&ev.LastTimestamp) {
				t.Errorf("Event count %d, firstTimestamp %v, lastTimestamp %v; want 1 and two equal non-zero times", ev.Count, ev.FirstTimestamp, ev.LastTimestamp)
			}
			if !strings.HasPrefix(ev.Name, cm.Name+".") {
				t.Errorf("Event name %q does not start with %q", ev.Name, cm.Name+".")
			}
			// The events client's Search finds it through server-side field
			// selectors on involvedObject.
			found, err := cs.CoreV1().Events(cm.Namespace).SearchWithContext(ctx, scheme.Scheme, cm)
			if err != nil {
				t.Fatalf("SearchWithContext: %v", err)
			}
			if len(found.Items) != 1 || found.Items[0].Name != ev.Name {
				t.Errorf("SearchWithContext found %v, want [%s]", summarize(found.Items), ev.Name)
			}
		},
	}, {
		name: "annotated event",
		record: func(cm *corev1.ConfigMap) {
			recorder.AnnotatedEventf(cm, map[string]string{"example.com/trace": "abc"}, corev1.EventTypeNormal, "Traced", "trace %d", 7)
		},
		check: func(t *testing.T, cm *corev1.ConfigMap, events []corev1.Event) {
			if len(events) != 1 {
				t.Fatalf("%d Events about the ConfigMap, want 1: %v", len(events), summarize(events))
			}
			ev := events[0]
			checkInvolvedObject(t, ev, cm)
			if ev.Annotations["example.com/trace"] != "abc" || ev.Message != "trace 7" || ev.Reason != "Traced" {
				t.Errorf("Event annotations %v, message %q, reason %q; want the trace annotation, %q, Traced", ev.Annotations, ev.Message, ev.Reason, "trace 7")
			}
		},
	}, {
		name: "repeats are counted in one event",
		record: func(cm *corev1.ConfigMap) {
			for range 5 {
				recorder.Eventf(cm, corev1.EventTypeNormal, "Synced", "synced %s", cm.Name)
			}
		},
		check: func(t *testing.T, cm *corev1.ConfigMap, events []corev1.Event) {
			if len(events) != 1 {
				t.Fatalf("%d Events about the ConfigMap, want 1 counting 5 repeats: %v", len(events), summarize(events))
			}
			ev := events[0]
			checkInvolvedObject(t, ev, cm)
			if ev.Count != 5 || ev.Message != "synced "+cm.Name || ev.Reason != "Synced" {
				t.Errorf("Event count %d, message %q, reason %q; want 5, %q, Synced", ev.Count, ev.Message, ev.Reason, "synced "+cm.Name)
			}
			if ev.LastTimestamp.Before(&ev.FirstTimestamp) {
				t.Errorf("Event lastTimestamp %v before firstTimestamp %v", ev.LastTimestamp, ev.FirstTimestamp)
			}
		},
	}, {
		// The correlator lets 9 similar events (same object and reason,
		// different message) through as they are; from the tenth on within
		// ten minutes it writes one combined event instead, counting every
		// further one and carrying the latest message.
		name: "similar events are combined",
		record: func(cm *corev1.ConfigMap) {
			for i := range 12 {
				recorder.Eventf(cm, corev1.EventTypeNormal, "Scaled", "scaled to %d", i)
			}
		},
		check: func(t *testing.T, cm *corev1.ConfigMap, events []corev1.Event) {
			var single, combined []corev1.Event
			for _, ev := range events {
				checkInvolvedObject(t, ev, cm)
				if ev.Reason != "Scaled" || ev.Type != corev1.EventTypeNormal || ev.Source != source {
					t.Errorf("Event %s: reason %q, type %q, source %+v", ev.Name, ev.Reason, ev.Type, ev.Source)
				}
				if strings.HasPrefix(ev.Message, "(combined from similar events)") {
					combined = append(combined, ev)
				} else {
					single = append(single, ev)
				}
			}
			if len(combined) != 1 {
				t.Fatalf("%d combined Events, want 1: %v", len(combined), summarize(events))
			}
			if c := combined[0]; c.Count != 3 || c.Message != combinedPrefix+"scaled to 11" {
				t.Errorf("combined Event count %d, message %q; want 3 (for the 10th to 12th) and %q", c.Count, c.Message, combinedPrefix+"scaled to 11")
			}
			var messages []string
			for _, ev := range single {
				if ev.Count != 1 {
					t.Errorf("Event %q has count %d, want 1", ev.Message, ev.Count)
				}
				messages = append(messages, ev.Message)
			}
			slices.Sort(messages)
			var want []string
			for i := range 9 {
				want = append(want, fmt.Sprintf("scaled to %d", i))
			}
			if !slices.Equal(messages, want) {
				t.Errorf("separate Events %q, want %q", messages, want)
			}
		},
	}, {
		// The spam filter lets a source burst 25 events about one object,
		// then one every five minutes; distinct reasons keep the
		// aggregator out of it.
		name: "events past the spam burst are dropped",
		record: func(cm *corev1.ConfigMap) {
			for i := range 30 {
				recorder.Eventf(cm, corev1.EventTypeNormal, fmt.Sprintf("Step%02d", i), "step %d", i)
			}
		},
		check: func(t *testing.T, cm *corev1.ConfigMap, events []corev1.Event) {
			var reasons []string
			for _, ev := range events {
				reasons = append(reasons, ev.Reason)
			}
			slices.Sort(reasons)
			var want []string
			for i := range 25 {
				want = append(want, fmt.Sprintf("Step%02d", i))
			}
			if !slices.Equal(reasons, want) {
				t.Errorf("Events with reasons %q, want the first 25 %q", reasons, want)
			}
		},
	}}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cm := createConfigMap(ctx, t, cs, ns, fmt.Sprintf("subject-%d", i))
			marker := createConfigMap(ctx, t, cs, ns, fmt.Sprintf("marker-%d", i))
			tt.record(cm)
			recorder.Event(marker, corev1.EventTypeNormal, "Marker", tt.name)
			waitCoreEvents(ctx, t, cs, ns, marker.UID, 1)
			tt.check(t, cm, coreEventsAbout(ctx, t, cs, ns, cm.UID))
		})
	}
}

// checkInvolvedObject checks that ev refers to cm.
func checkInvolvedObject(t *testing.T, ev corev1.Event, cm *corev1.ConfigMap) {
	t.Helper()
	want := corev1.ObjectReference{
		Kind:            "ConfigMap",
		APIVersion:      "v1",
		Namespace:       cm.Namespace,
		Name:            cm.Name,
		UID:             cm.UID,
		ResourceVersion: cm.ResourceVersion,
	}
	if ev.InvolvedObject != want {
		t.Errorf("Event %s involvedObject %+v, want %+v", ev.Name, ev.InvolvedObject, want)
	}
}

// coreEventsAbout lists the core/v1 Events in ns about the object with uid.
func coreEventsAbout(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, uid types.UID) []corev1.Event {
	t.Helper()
	list, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing Events in %s: %v", ns, err)
	}
	var about []corev1.Event
	for _, ev := range list.Items {
		if ev.InvolvedObject.UID == uid {
			about = append(about, ev)
		}
	}
	return about
}

// waitCoreEvents polls until n Events about the object with uid exist.
func waitCoreEvents(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, uid types.UID, n int) {
	t.Helper()
	var got []corev1.Event
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, waitTimeout, true, func(ctx context.Context) (bool, error) {
		got = coreEventsAbout(ctx, t, cs, ns, uid)
		return len(got) >= n, nil
	})
	if err != nil {
		t.Fatalf("waiting for %d Events about %s: %v (have %v)", n, uid, err, summarize(got))
	}
}

// summarize describes events briefly for failure messages.
func summarize(events []corev1.Event) []string {
	var out []string
	for _, ev := range events {
		out = append(out, fmt.Sprintf("%s %s/%s count=%d %q", ev.Name, ev.Type, ev.Reason, ev.Count, ev.Message))
	}
	return out
}
