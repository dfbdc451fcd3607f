package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
	restwatch "github.com/kubeclient/client-go/rest/watch"
)

// jsonWatchFrame is one line of a JSON watch stream.
func jsonWatchFrame(t *testing.T, eventType watch.EventType, obj runtime.Object) []byte {
	t.Helper()
	raw := encodeAs(t, "application/json", obj)
	frame, err := json.Marshal(metav1.WatchEvent{Type: string(eventType), Object: runtime.RawExtension{Raw: raw}})
	if err != nil {
		t.Fatal(err)
	}
	return append(frame, '\n')
}

// nextEvent receives one event, waiting for it as long as it takes: a
// watch that never delivers one is a hang that go test's -timeout reports.
func nextEvent(t *testing.T, w watch.Interface) (watch.Event, bool) {
	t.Helper()
	ev, ok := <-w.ResultChan()
	return ev, ok
}

func TestWatchJSONStream(t *testing.T) {
	var gotQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Transfer-Encoding", "chunked")
		w.Header().Add("Warning", `299 - "watch warning"`)
		w.WriteHeader(200)
		flusher := w.(http.Flusher)
		for _, frame := range [][]byte{
			jsonWatchFrame(t, watch.Added, testPod("a")),
			jsonWatchFrame(t, watch.Modified, testPod("a")),
			jsonWatchFrame(t, watch.Bookmark, &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{ResourceVersion: "99"}}),
			jsonWatchFrame(t, watch.Deleted, testPod("a")),
			jsonWatchFrame(t, watch.Error, statusBody(410, metav1.StatusReasonExpired, "too old resource version")),
		} {
			_, _ = w.Write(frame)
			flusher.Flush()
		}
	}))
	defer srv.Close()

	limiter := &countingLimiter{}
	warnings := &warningRecorder{}
	c := coreV1Client(t, srv, func(c *Config) { c.RateLimiter = limiter; c.WarningHandler = warnings })
	w, err := c.Get().Namespace("default").Resource("pods").VersionedParams(&metav1.ListOptions{Watch: true, ResourceVersion: "5"}, testParams).Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	wantTypes := []watch.EventType{watch.Added, watch.Modified, watch.Bookmark, watch.Deleted, watch.Error}
	for i, want := range wantTypes {
		ev, ok := nextEvent(t, w)
		if !ok {
			t.Fatalf("stream closed after %d events", i)
		}
		if ev.Type != want {
			t.Errorf("event %d type %s, want %s", i, ev.Type, want)
		}
		switch obj := ev.Object.(type) {
		case *corev1.Pod:
			if want == watch.Bookmark && obj.ResourceVersion != "99" {
				t.Errorf("bookmark rv = %q", obj.ResourceVersion)
			}
			if want != watch.Bookmark && obj.Name != "a" {
				t.Errorf("pod name = %q", obj.Name)
			}
		case *metav1.Status:
			if want != watch.Error || obj.Reason != metav1.StatusReasonExpired {
				t.Errorf("unexpected status %+v", obj)
			}
			if !apierrors.IsResourceExpired(apierrors.FromObject(obj)) {
				t.Errorf("status does not convert to an Expired error: %+v", obj)
			}
		default:
			t.Errorf("event %d object %T", i, ev.Object)
		}
	}
	if _, ok := nextEvent(t, w); ok {
		t.Error("channel not closed at end of stream")
	}
	if !strings.Contains(gotQuery, "watch=true") || !strings.Contains(gotQuery, "resourceVersion=5") {
		t.Errorf("query = %q", gotQuery)
	}
	if limiter.count() != 0 {
		t.Errorf("watch was throttled %d times; watches are not rate limited", limiter.count())
	}
	if got := warnings.texts(); len(got) != 1 || got[0] != "watch warning" {
		t.Errorf("warnings = %v", got)
	}
}

func TestWatchProtobufStream(t *testing.T) {
	const proto = "application/vnd.kubernetes.protobuf"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Accept"); !strings.HasPrefix(got, proto) {
			t.Errorf("Accept = %q", got)
		}
		info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), proto)
		w.Header().Set("Content-Type", proto+";stream=watch")
		w.WriteHeader(200)
		frames := info.StreamSerializer.Framer.NewFrameWriter(w)
		enc := restwatch.NewEncoder(streaming.NewEncoder(frames, info.StreamSerializer.Serializer),
			testCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion))
		for _, name := range []string{"p1", "p2"} {
			if err := enc.Encode(&watch.Event{Type: watch.Added, Object: testPod(name)}); err != nil {
				t.Error(err)
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	c := coreV1Client(t, srv, func(c *Config) {
		c.ContentType = proto
		c.AcceptContentTypes = proto + ",application/json"
	})
	w, err := c.Get().Resource("pods").Param("watch", "true").Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for _, want := range []string{"p1", "p2"} {
		ev, ok := nextEvent(t, w)
		if !ok {
			t.Fatal("stream closed early")
		}
		if pod, isPod := ev.Object.(*corev1.Pod); !isPod || pod.Name != want || ev.Type != watch.Added {
			t.Errorf("event %s %#v, want ADDED %s", ev.Type, ev.Object, want)
		}
	}
}

func TestWatchDecodeFailureBecomesErrorEvent(t *testing.T) {
	tests := map[string]string{
		"garbage frame":    "this is not json\n",
		"unknown type":     `{"type":"EXPLODED","object":{"kind":"Pod","apiVersion":"v1"}}` + "\n",
		"undecodable kind": `{"type":"ADDED","object":{"kind":"Unicorn","apiVersion":"v1"}}` + "\n",
	}
	for name, bad := range tests {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(200)
				_, _ = w.Write(jsonWatchFrame(t, watch.Added, testPod("good")))
				_, _ = io.WriteString(w, bad)
			}))
			defer srv.Close()
			w, err := coreV1Client(t, srv).Get().Resource("pods").Watch(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			if ev, _ := nextEvent(t, w); ev.Type != watch.Added {
				t.Fatalf("first event %v", ev)
			}
			ev, ok := nextEvent(t, w)
			if !ok || ev.Type != watch.Error {
				t.Fatalf("got %v %v, want an ERROR event", ev.Type, ok)
			}
			status, isStatus := ev.Object.(*metav1.Status)
			if !isStatus || status.Status != metav1.StatusFailure || status.Code != 500 {
				t.Fatalf("error object %#v", ev.Object)
			}
			if !hasCause(status, "ClientWatchDecoding") {
				t.Errorf("status details %+v lack the ClientWatchDecoding cause", status.Details)
			}
			if _, ok := nextEvent(t, w); ok {
				t.Error("watch continued after a decoding error")
			}
		})
	}
}

func TestWatchErrors(t *testing.T) {
	t.Run("status response", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(t, w, 403, statusBody(403, metav1.StatusReasonForbidden, `pods is forbidden: User "x" cannot watch`))
		}))
		defer srv.Close()
		_, err := coreV1Client(t, srv).Get().Resource("pods").Watch(context.Background())
		if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "cannot watch") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("non-200 success code", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(202)
		}))
		defer srv.Close()
		_, err := coreV1Client(t, srv).Get().Resource("pods").Watch(context.Background())
		if err == nil || !strings.Contains(err.Error(), "got status: 202") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("unsupported stream type", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/csv")
			w.WriteHeader(200)
		}))
		defer srv.Close()
		_, err := coreV1Client(t, srv).Get().Resource("pods").Watch(context.Background())
		var negotiate runtime.NegotiateError
		if !errors.As(err, &negotiate) {
			t.Errorf("err = %v, want a NegotiateError", err)
		}
	})
	t.Run("retry after", func(t *testing.T) {
		srv := newScriptedServer(t, throttled("1"), func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(jsonWatchFrame(t, watch.Added, testPod("x")))
		})
		w, err := coreV1Client(t, srv.Server).Get().Resource("pods").BackOffWithContext(&recordingBackoff{}).Watch(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if ev, _ := nextEvent(t, w); ev.Type != watch.Added {
			t.Errorf("event %v", ev)
		}
		if n := len(srv.received()); n != 2 {
			t.Errorf("attempts = %d", n)
		}
	})
	t.Run("dropped connection gives an empty watch", func(t *testing.T) {
		srv := newScriptedServer(t, func(w http.ResponseWriter, r *http.Request) {
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
		})
		w, err := coreV1Client(t, srv.Server).Get().Resource("pods").MaxRetries(1).BackOffWithContext(&recordingBackoff{}).Watch(context.Background())
		if err != nil {
			t.Fatalf("err = %v, want an empty watch", err)
		}
		if _, ok := nextEvent(t, w); ok {
			t.Error("empty watch delivered an event")
		}
		if n := len(srv.received()); n != 2 {
			t.Errorf("attempts = %d, want 2", n)
		}
	})
}

func TestWatchStopsOnContextCancel(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = w.Write(jsonWatchFrame(t, watch.Added, testPod("a")))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := coreV1Client(t, srv).Get().Resource("pods").Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ev, _ := nextEvent(t, w); ev.Type != watch.Added {
		t.Fatalf("event %v", ev)
	}
	cancel()
	for {
		ev, ok := nextEvent(t, w)
		if !ok {
			return
		}
		// A final error event describing the broken stream is acceptable.
		if ev.Type != watch.Error {
			t.Fatalf("unexpected event after cancel: %v", ev.Type)
		}
	}
}

func TestWatchStop(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	w, err := coreV1Client(t, srv).Get().Resource("pods").Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	// The stream watcher may still report the read it was blocked in as an
	// ERROR event; after that the channel must close.
	for i := 0; ; i++ {
		ev, ok := nextEvent(t, w)
		if !ok {
			break
		}
		if ev.Type != watch.Error || i > 0 {
			t.Fatalf("event after Stop: %s %s", ev.Type, fmt.Sprint(ev.Object))
		}
	}
}

func hasCause(status *metav1.Status, causeType metav1.CauseType) bool {
	if status.Details == nil {
		return false
	}
	for _, c := range status.Details.Causes {
		if c.Type == causeType {
			return true
		}
	}
	return false
}

// TestWatchThroughWirecodecMatchesReference watches the same pod stream
// with apimachinery's codecs and with the generated clientsets' wirecodec
// wrapper: the events must be equal.
func TestWatchThroughWirecodecMatchesReference(t *testing.T) {
	frames := []string{
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","annotations":{"x":"}\"{"}}}}`,
		`{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"},"spec":{"containers":[{"name":"c"}]}}}`,
		`{"object":{"kind":"Status","apiVersion":"v1"},"type":"ERROR"}`,
		`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12"}},"kind":"WatchEvent"}`,
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"\u00e9\\"}}}`,
	}
	stream := strings.Join(frames, "\n") + "\n" + `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"last"}}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, stream)
	}))
	defer srv.Close()
	events := func(codec runtime.NegotiatedSerializer) []watch.Event {
		config := coreV1Config(srv.URL)
		config.NegotiatedSerializer = codec
		client, err := RESTClientFor(config)
		if err != nil {
			t.Fatal(err)
		}
		w, err := client.Get().Resource("pods").Param("watch", "true").Watch(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var out []watch.Event
		for e := range w.ResultChan() {
			out = append(out, e)
		}
		return out
	}
	want := events(wiretest.ReferenceCodecs(testCodecs.WithoutConversion()))
	got := events(testCodecs.WithoutConversion())
	if len(want) != 6 || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %d events %+v\nwant %d %+v", len(got), got, len(want), want)
	}
}
