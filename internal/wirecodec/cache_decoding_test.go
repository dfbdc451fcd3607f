package wirecodec

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestForContextSharesOnlyForMarkedRequests decodes one document twice
// through the decoder ForContext gives, as the REST client wraps it
// (runtime.WithoutVersionDecoder), and tells whether the two pods share
// their managed-fields sets and limits.
func TestForContextSharesOnlyForMarkedRequests(t *testing.T) {
	ref := protobuf.NewSerializer(testScheme, testScheme)
	fast := NewProtobufSerializer(ref, testScheme, testScheme)
	pod := wiretest.Pod("web")
	pod.APIVersion, pod.Kind = "v1", "Pod"
	doc := protobufDoc(t, ref, pod)
	share := intern.NewDecodeSharing(intern.NewBytes(16, 16<<10))
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		decoder runtime.Decoder
		shared  bool
	}{
		{"unmarked", context.Background(), runtime.WithoutVersionDecoder{Decoder: fast}, false},
		{"marked with nil", WithCacheDecoding(context.Background(), nil), runtime.WithoutVersionDecoder{Decoder: fast}, false},
		{"marked", WithCacheDecoding(context.Background(), share), runtime.WithoutVersionDecoder{Decoder: fast}, true},
		{"marked, bare serializer", WithCacheDecoding(context.Background(), share), fast, true},
		{"marked, reference decoder", WithCacheDecoding(context.Background(), share), ref, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ForContext(tc.ctx, tc.decoder)
			var pods [2]*corev1.Pod
			for i := range pods {
				obj, _, err := d.Decode(doc, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				want, _, _ := ref.Decode(doc, nil, nil)
				if _, unversioned := tc.decoder.(runtime.WithoutVersionDecoder); unversioned {
					want.GetObjectKind().SetGroupVersionKind(obj.GetObjectKind().GroupVersionKind())
				}
				if !reflect.DeepEqual(obj, want) {
					t.Fatalf("decoded %#v\nreference %#v", obj, want)
				}
				pods[i] = obj.(*corev1.Pod)
			}
			a, b := pods[0], pods[1]
			fa, fb := a.ManagedFields[0].FieldsV1.Raw, b.ManagedFields[0].FieldsV1.Raw
			if got := &fa[0] == &fb[0]; got != tc.shared {
				t.Errorf("managed fields shared: %v, want %v", got, tc.shared)
			}
			la, lb := a.Spec.Containers[0].Resources.Limits, b.Spec.Containers[0].Resources.Limits
			if got := reflect.ValueOf(la).UnsafePointer() == reflect.ValueOf(lb).UnsafePointer(); got != tc.shared {
				t.Errorf("limits shared: %v, want %v", got, tc.shared)
			}
		})
	}
}

// TestForContextSharesJSONFields: through ForContext with a marked
// context, the JSON decoder decodes equal managed-fields sets to one
// shared slice; unmarked, each pod has its own.
func TestForContextSharesJSONFields(t *testing.T) {
	ref := json.NewSerializerWithOptions(json.DefaultMetaFactory, testScheme, testScheme, json.SerializerOptions{})
	fast := NewJSONSerializer(ref, testScheme, testScheme)
	pod := wiretest.Pod("web")
	pod.APIVersion, pod.Kind = "v1", "Pod"
	var doc bytes.Buffer
	if err := ref.Encode(pod, &doc); err != nil {
		t.Fatal(err)
	}
	share := intern.NewDecodeSharing(intern.NewBytes(16, 16<<10))
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		decoder runtime.Decoder
		shared  bool
	}{
		{"unmarked", context.Background(), runtime.WithoutVersionDecoder{Decoder: fast}, false},
		{"marked", WithCacheDecoding(context.Background(), share), runtime.WithoutVersionDecoder{Decoder: fast}, true},
		{"marked, bare serializer", WithCacheDecoding(context.Background(), share), fast, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ForContext(tc.ctx, tc.decoder)
			var pods [2]*corev1.Pod
			for i := range pods {
				obj, _, err := d.Decode(doc.Bytes(), nil, &corev1.Pod{})
				if err != nil {
					t.Fatal(err)
				}
				want, _, _ := tc.decoder.Decode(doc.Bytes(), nil, &corev1.Pod{})
				if !reflect.DeepEqual(obj, want) {
					t.Fatalf("decoded %#v\nwithout sharing %#v", obj, want)
				}
				pods[i] = obj.(*corev1.Pod)
			}
			fa, fb := pods[0].ManagedFields[0].FieldsV1.Raw, pods[1].ManagedFields[0].FieldsV1.Raw
			if got := &fa[0] == &fb[0]; got != tc.shared {
				t.Errorf("managed fields shared: %v, want %v", got, tc.shared)
			}
		})
	}
}

// TestForWatchKeepsStreamStrings: the protobuf decoder ForWatch gives a
// marked watch request keeps strings of its own from one event to the
// next (one per stream); ForContext's, for a request decoded once, and
// an unmarked request's, keep none.
func TestForWatchKeepsStreamStrings(t *testing.T) {
	fast := NewProtobufSerializer(protobuf.NewSerializer(testScheme, testScheme), testScheme, testScheme)
	marked := WithCacheDecoding(context.Background(), intern.NewDecodeSharing(intern.NewBytes(16, 16<<10)))
	streamOf := func(d runtime.Decoder) bool {
		if v, ok := d.(runtime.WithoutVersionDecoder); ok {
			d = v.Decoder
		}
		s, ok := d.(sharingDecoder)
		return ok && s.c.Strings != nil
	}
	wrapped := runtime.WithoutVersionDecoder{Decoder: fast}
	if !streamOf(ForWatch(marked, wrapped)) {
		t.Error("ForWatch's decoder keeps no strings")
	}
	a, b := ForWatch(marked, wrapped), ForWatch(marked, wrapped)
	if a.(runtime.WithoutVersionDecoder).Decoder.(sharingDecoder).c.Strings == b.(runtime.WithoutVersionDecoder).Decoder.(sharingDecoder).c.Strings {
		t.Error("two watches share their strings")
	}
	if streamOf(ForContext(marked, wrapped)) {
		t.Error("ForContext's decoder keeps strings")
	}
	if streamOf(ForWatch(context.Background(), wrapped)) {
		t.Error("an unmarked watch's decoder keeps strings")
	}
}
