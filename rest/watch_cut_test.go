package rest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"

	restwatch "github.com/kubeclient/client-go/rest/watch"
)

const protobufMediaType = "application/vnd.kubernetes.protobuf"

// protobufWatchFrame is one length-prefixed frame of a protobuf watch
// stream.
func protobufWatchFrame(t *testing.T, eventType watch.EventType, obj runtime.Object) []byte {
	t.Helper()
	info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), protobufMediaType)
	var buf bytes.Buffer
	enc := restwatch.NewEncoder(streaming.NewEncoder(info.StreamSerializer.Framer.NewFrameWriter(&buf), info.StreamSerializer.Serializer),
		testCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion))
	if err := enc.Encode(&watch.Event{Type: eventType, Object: obj}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawWatchServer answers a watch by hand on the hijacked connection: a 200
// chunked response carrying body, then either the closing chunk (a clean
// end of the response) or a TCP reset.
func rawWatchServer(t *testing.T, contentType string, body []byte, reset bool) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, rw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n", contentType)
		fmt.Fprintf(rw, "%x\r\n%s\r\n", len(body), body)
		if !reset {
			fmt.Fprint(rw, "0\r\n\r\n")
		}
		if err := rw.Flush(); err != nil {
			t.Error(err)
		}
		if reset {
			// Closing with a zero linger time sends RST.
			_ = conn.(*net.TCPConn).SetLinger(0)
		}
	}))
}

// TestWatchCutMidEventClosesTheChannel: a stream that ends or breaks inside
// an event closes the result channel with no further event, as client-go's
// does, whether it ends between events or inside one; WatchCutError then
// tells the two apart.
func TestWatchCutMidEventClosesTheChannel(t *testing.T) {
	formats := []struct {
		name, contentType string
		frame             func(*testing.T, watch.EventType, runtime.Object) []byte
		configure         func(*Config)
	}{
		{"json", "application/json", jsonWatchFrame, func(*Config) {}},
		{"protobuf", protobufMediaType + ";stream=watch", protobufWatchFrame, func(c *Config) {
			c.ContentType = protobufMediaType
			c.AcceptContentTypes = protobufMediaType
		}},
	}
	endings := []struct {
		name    string
		cut     func(frame []byte) []byte // what is sent of the second event
		reset   bool
		wantCut bool
	}{
		{"end between events", func([]byte) []byte { return nil }, false, false},
		{"reset between events", func([]byte) []byte { return nil }, true, false},
		{"end inside the length or first byte", func(f []byte) []byte { return f[:1] }, false, true},
		{"end mid-event", func(f []byte) []byte { return f[:len(f)/2] }, false, true},
		{"end short of the last byte", func(f []byte) []byte { return f[:len(f)-2] }, false, true},
		{"reset mid-event", func(f []byte) []byte { return f[:len(f)/2] }, true, true},
	}
	for _, format := range formats {
		for _, ending := range endings {
			t.Run(format.name+"/"+ending.name, func(t *testing.T) {
				first := format.frame(t, watch.Added, testPod("first"))
				second := format.frame(t, watch.Modified, testPod(`second "quoted" {name}`))
				body := append(append([]byte(nil), first...), ending.cut(second)...)
				srv := rawWatchServer(t, format.contentType, body, ending.reset)
				defer srv.Close()

				c := coreV1Client(t, srv, format.configure)
				w, err := c.Get().Resource("pods").Param("watch", "true").Watch(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				defer w.Stop()

				ev, ok := nextEvent(t, w)
				if pod, isPod := ev.Object.(*corev1.Pod); !ok || ev.Type != watch.Added || !isPod || pod.Name != "first" {
					t.Fatalf("first event %v %s %#v, want ADDED first", ok, ev.Type, ev.Object)
				}
				ev, ok = nextEvent(t, w)
				if ok {
					t.Errorf("got %s %#v, want the result channel closed", ev.Type, ev.Object)
				}
				err = WatchCutError(w)
				switch {
				case ending.wantCut && (err == nil || !strings.Contains(err.Error(), "cut in the middle of an event")):
					t.Errorf("WatchCutError: %v, want the cut", err)
				case !ending.wantCut && err != nil:
					t.Errorf("WatchCutError: %v, want nil", err)
				}
			})
		}
	}
}

// TestWatchCutErrorOfOtherWatches: a watch that was stopped, or that this
// package did not open, reports no cut.
func TestWatchCutErrorOfOtherWatches(t *testing.T) {
	first := jsonWatchFrame(t, watch.Added, testPod("first"))
	srv := rawWatchServer(t, "application/json", append(first, first[:len(first)/2]...), false)
	defer srv.Close()
	w, err := coreV1Client(t, srv, func(*Config) {}).Get().Resource("pods").Param("watch", "true").Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	for range w.ResultChan() {
	}
	tests := []struct {
		name string
		w    watch.Interface
	}{
		{"stopped", w},
		{"fake", watch.NewFake()},
		{"empty", watch.NewEmptyWatch()},
	}
	for _, tt := range tests {
		if err := WatchCutError(tt.w); err != nil {
			t.Errorf("%s: %v, want nil", tt.name, err)
		}
	}
}
