package rest

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestCacheDecodingReachesTheDecoders gets and watches protobuf pods with
// and without a context marked by wirecodec.WithCacheDecoding: only the
// marked requests decode pods that share their managed-fields sets.
func TestCacheDecodingReachesTheDecoders(t *testing.T) {
	t.Cleanup(fastpath.GeneratedDecoders.Set(true))
	pod := encodeAs(t, runtime.ContentTypeProtobuf, wiretest.Pod("web"))
	info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	var frames bytes.Buffer
	fw := info.StreamSerializer.Framer.NewFrameWriter(&frames)
	for range 2 {
		var event bytes.Buffer
		if err := info.StreamSerializer.Serializer.Encode(&metav1.WatchEvent{Type: "MODIFIED", Object: runtime.RawExtension{Raw: pod}}, &event); err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(event.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
		if r.URL.Query().Get("watch") == "true" {
			_, _ = w.Write(frames.Bytes())
			return
		}
		_, _ = w.Write(pod)
	}))
	defer srv.Close()
	config := coreV1Config(srv.URL)
	config.NegotiatedSerializer = testCodecs.WithoutConversion()
	config.AcceptContentTypes = runtime.ContentTypeProtobuf
	client, err := RESTClientFor(config)
	if err != nil {
		t.Fatal(err)
	}
	get := func(ctx context.Context) [2]*corev1.Pod {
		var pods [2]*corev1.Pod
		for i := range pods {
			pods[i] = &corev1.Pod{}
			if err := client.Get().Resource("pods").Name("web").Do(ctx).Into(pods[i]); err != nil {
				t.Fatal(err)
			}
		}
		return pods
	}
	watchTwo := func(ctx context.Context) [2]*corev1.Pod {
		w, err := client.Get().Resource("pods").Param("watch", "true").Watch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		var pods [2]*corev1.Pod
		for i := range pods {
			e := <-w.ResultChan()
			p, ok := e.Object.(*corev1.Pod)
			if !ok {
				t.Fatalf("event %d: %v %T", i, e.Type, e.Object)
			}
			pods[i] = p
		}
		return pods
	}
	share := intern.NewDecodeSharing(intern.NewBytes(16, 16<<10))
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		shared bool
	}{
		{"unmarked", context.Background(), false},
		{"marked", wirecodec.WithCacheDecoding(context.Background(), share), true},
	} {
		for verb, decode := range map[string]func(context.Context) [2]*corev1.Pod{"get": get, "watch": watchTwo} {
			pods := decode(tc.ctx)
			a, b := pods[0].ManagedFields[0].FieldsV1.Raw, pods[1].ManagedFields[0].FieldsV1.Raw
			if got := &a[0] == &b[0]; got != tc.shared {
				t.Errorf("%s, %s: managed fields shared %v, want %v", tc.name, verb, got, tc.shared)
			}
		}
	}
}
