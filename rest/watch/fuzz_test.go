package watch

import (
	"bytes"
	"io"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// FuzzStreamDecoder feeds arbitrary bytes as a watch stream, in JSON and in
// protobuf framing, through the same pipeline rest.Request.Watch builds. It
// must never panic, and a failure to decode must surface as a final
// watch.Error event carrying a metav1.Status, after which the channel closes.
func FuzzStreamDecoder(f *testing.F) {
	var seed bytes.Buffer
	for _, wf := range formats(f) {
		enc := wf.encoder(&seed)
		_ = enc.Encode(&watch.Event{Type: watch.Added, Object: &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Name: "seed"}}})
		f.Add(append([]byte(nil), seed.Bytes()...))
		seed.Reset()
	}
	f.Add([]byte(`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}}` + "\n" + `{"type":"BOGUS"}`))
	f.Add([]byte("\x00\x00\x00\x10k8s\x00garbage-protobuf"))
	f.Add([]byte("\xff\xff\xff\xff"))
	f.Add([]byte(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","code":500}}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		// In a bubble, a watch that blocks without ending is a deadlock
		// synctest reports, whatever the machine's speed.
		synctest.Test(t, func(t *testing.T) {
			for _, wf := range formats(t) {
				dec := wf.decoder(io.NopCloser(bytes.NewReader(data)))
				w := watch.NewStreamWatcher(dec, apierrors.NewClientErrorReporter(500, "GET", "ClientWatchDecoding"))
				for ev := range w.ResultChan() {
					if ev.Object == nil {
						w.Stop()
						t.Fatalf("%s: event %s without object", wf.mediaType, ev.Type)
					}
					if _, isStatus := ev.Object.(*metav1.Status); ev.Type == watch.Error && !isStatus {
						w.Stop()
						t.Fatalf("%s: error event carries %T, want *metav1.Status", wf.mediaType, ev.Object)
					}
				}
			}
		})
	})
}
