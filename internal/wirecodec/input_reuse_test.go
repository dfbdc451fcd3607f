package wirecodec

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	"github.com/kubeclient/client-go/internal/intern"
)

func TestKeepsNoInput(t *testing.T) {
	refProto := protobuf.NewSerializer(testScheme, testScheme)
	refJSON := json.NewSerializerWithOptions(json.DefaultMetaFactory, testScheme, testScheme, json.SerializerOptions{})
	proto := NewProtobufSerializer(refProto, testScheme, testScheme)
	jsonSer := NewJSONSerializer(refJSON, testScheme, testScheme)
	forCache := WithCacheDecoding(context.Background(), intern.NewDecodeSharing(intern.NewBytes(16, 1<<10)))
	for _, tc := range []struct {
		name    string
		decoder runtime.Decoder
		into    runtime.Object
		want    bool
	}{
		{"protobuf", proto, &corev1.PodList{}, true},
		{"JSON", jsonSer, &corev1.PodList{}, true},
		{"protobuf for a cache", ForContext(forCache, proto), &corev1.PodList{}, true},
		{"JSON for a cache", ForContext(forCache, jsonSer), &corev1.PodList{}, true},
		{"protobuf as the REST client wraps it", runtime.WithoutVersionDecoder{Decoder: ForContext(forCache, proto)}, &corev1.Pod{}, true},
		{"into an Unknown", proto, &runtime.Unknown{}, false},
		{"JSON into an Unknown", runtime.WithoutVersionDecoder{Decoder: jsonSer}, &runtime.Unknown{}, false},
		{"into nothing", proto, nil, false},
		{"apimachinery's protobuf serializer", refProto, &corev1.PodList{}, false},
		{"apimachinery's JSON serializer", refJSON, &corev1.PodList{}, false},
		{"no decoder", nil, &corev1.PodList{}, false},
	} {
		if got := KeepsNoInput(tc.decoder, tc.into); got != tc.want {
			t.Errorf("%s: KeepsNoInput = %v, want %v", tc.name, got, tc.want)
		}
	}
}
