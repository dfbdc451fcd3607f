package wirecodec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestForeignLayouts pins which of apimachinery's serializers get a fast
// form: the ones built as the fast decoders' references, with the typer
// and creater they were built with; no YAML, strict or custom-meta one.
func TestForeignLayouts(t *testing.T) {
	otherScheme := runtime.NewScheme()
	tests := []struct {
		name   string
		s      runtime.Serializer
		want   string // type of the fast form, "" for none
		scheme *runtime.Scheme
	}{
		{"json", jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, testScheme, testScheme, jsonserializer.SerializerOptions{}), "*wirecodec.JSONSerializer", testScheme},
		{"json pretty", jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, otherScheme, otherScheme, jsonserializer.SerializerOptions{Pretty: true}), "*wirecodec.JSONSerializer", otherScheme},
		{"json strict", jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, testScheme, testScheme, jsonserializer.SerializerOptions{Strict: true}), "", nil},
		{"yaml", jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, testScheme, testScheme, jsonserializer.SerializerOptions{Yaml: true}), "", nil},
		{"json other meta", jsonserializer.NewSerializerWithOptions(otherMeta{}, testScheme, testScheme, jsonserializer.SerializerOptions{}), "", nil},
		{"json without typer", jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, testScheme, nil, jsonserializer.SerializerOptions{}), "", nil},
		{"protobuf", protobuf.NewSerializer(testScheme, testScheme), "*wirecodec.ProtobufSerializer", testScheme},
		{"raw protobuf", protobuf.NewRawSerializer(otherScheme, otherScheme), "*wirecodec.ProtobufStreamSerializer", otherScheme},
		{"other", wiretest.Opaque{Serializer: protobuf.NewSerializer(testScheme, testScheme)}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fast := fastDecoder(tc.s)
			if got := typeName(fast); got != tc.want {
				t.Fatalf("fast form %s, want %s", got, tc.want)
			}
			var typer runtime.ObjectTyper
			switch f := fast.(type) {
			case *JSONSerializer:
				typer = f.typer
				if f.creater != runtime.ObjectCreater(tc.scheme) {
					t.Error("creater is not the serializer's")
				}
			case *ProtobufSerializer:
				typer = f.typer
				if f.creater != runtime.ObjectCreater(tc.scheme) {
					t.Error("creater is not the serializer's")
				}
			case *ProtobufStreamSerializer:
				typer = f.typer
			default:
				return
			}
			if typer != runtime.ObjectTyper(tc.scheme) {
				t.Error("typer is not the serializer's")
			}
		})
	}
}

func typeName(v any) string {
	if v == nil || reflect.ValueOf(v).IsNil() {
		return ""
	}
	return fmt.Sprintf("%T", v)
}

// otherMeta is a MetaFactory that is not apimachinery's default.
type otherMeta struct {
	jsonserializer.SimpleMetaFactory
}

// zeroingCodecs wraps the decoders DecoderToVersion returns, zeroing the
// target first, as controller-runtime's client does.
type zeroingCodecs struct{ runtime.NegotiatedSerializer }

func (c zeroingCodecs) DecoderToVersion(d runtime.Decoder, gv runtime.GroupVersioner) runtime.Decoder {
	return zeroingDecoder{c.NegotiatedSerializer.DecoderToVersion(d, gv)}
}

type zeroingDecoder struct{ upstream runtime.Decoder }

func (z zeroingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if into != nil {
		v := reflect.ValueOf(into).Elem()
		v.Set(reflect.Zero(v.Type()))
	}
	return z.upstream.Decode(data, defaults, into)
}

// TestNegotiatedSerializerDecodesAsTheCallers decodes documents through
// the decoders a client negotiator finds in each kind of caller's
// NegotiatedSerializer, wrapped and not, and compares objects, kinds and
// errors.
func TestNegotiatedSerializerDecodesAsTheCallers(t *testing.T) {
	factory := serializer.NewCodecFactory(testScheme)
	callers := map[string]runtime.NegotiatedSerializer{
		"CodecFactory":                      factory,
		"WithoutConversion":                 factory.WithoutConversion(),
		"zeroing WithoutConversion wrapper": zeroingCodecs{factory.WithoutConversion()},
		"zeroing CodecFactory wrapper":      zeroingCodecs{factory},
	}
	pod := wiretest.Pod("web-abc")
	deployment := &appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: metav1.ObjectMeta{Name: "d", Labels: map[string]string{"a": "b"}}}
	list := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}, Items: []corev1.Pod{*pod, *pod}}
	jsonDocs := map[string][]byte{
		"pod":            mustJSON(t, pod),
		"deployment":     mustJSON(t, deployment),
		"list":           mustJSON(t, list),
		"no kind":        []byte(`{"apiVersion":"v1","metadata":{"name":"x"}}`),
		"unknown kind":   []byte(`{"apiVersion":"v1","kind":"Nope","metadata":{"name":"x"}}`),
		"status":         []byte(`{"apiVersion":"v1","kind":"Status","status":"Failure","code":404}`),
		"malformed":      []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{`),
		"unknown fields": []byte(`{"apiVersion":"v1","kind":"Pod","zz":1,"metadata":{"name":"x","labels":{"k":"v"}}}`),
	}
	protoDocs := map[string][]byte{
		"pod":        mustProto(t, pod),
		"deployment": mustProto(t, deployment),
		"list":       mustProto(t, list),
		"truncated":  mustProto(t, pod)[:40],
	}
	targets := map[string]func() runtime.Object{
		"nil": func() runtime.Object { return nil },
		"pod": func() runtime.Object {
			return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"old": "x"}}}
		},
		"deployment": func() runtime.Object { return &appsv1.Deployment{} },
		"pod list":   func() runtime.Object { return &corev1.PodList{} },
	}
	gvs := []schema.GroupVersion{corev1.SchemeGroupVersion, appsv1.SchemeGroupVersion}
	if !fastpath.GeneratedDecoders.On() {
		t.Skip("generated decoders switched off")
	}
	for callerName, caller := range callers {
		fast := NewNegotiatedSerializer(caller)
		if fast == caller {
			t.Fatalf("%s: not wrapped", callerName)
		}
		ref := wiretest.ReferenceCodecs(caller)
		for _, mediaType := range []string{runtime.ContentTypeJSON, runtime.ContentTypeProtobuf} {
			docs := jsonDocs
			if mediaType == runtime.ContentTypeProtobuf {
				docs = protoDocs
			}
			for _, gv := range gvs {
				fastDecoder := decoderFor(t, fast, mediaType, gv)
				refDecoder := decoderFor(t, ref, mediaType, gv)
				if fastpath.DecodeSlabs.On() && !decodesLean(t, fastDecoder, refDecoder, docs["pod"]) {
					t.Errorf("%s %s %v: the generated decoders did not run", callerName, mediaType, gv)
				}
				for docName, doc := range docs {
					for targetName, target := range targets {
						name := fmt.Sprintf("%s/%s/%v/%s/into %s", callerName, mediaType, gv, docName, targetName)
						want, wantKind, wantErr := refDecoder.Decode(doc, nil, target())
						got, gotKind, gotErr := fastDecoder.Decode(doc, nil, target())
						if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
							t.Errorf("%s: error %v, want %v", name, gotErr, wantErr)
							continue
						}
						if !reflect.DeepEqual(got, want) {
							t.Errorf("%s: object\n got %#v\nwant %#v", name, got, want)
						}
						if !reflect.DeepEqual(gotKind, wantKind) {
							t.Errorf("%s: kind %v, want %v", name, gotKind, wantKind)
						}
					}
				}
			}
		}
	}
}

// TestNegotiatedSerializerFollowsTheCaller: the media types are asked of
// the caller's serializer each time; an answer that changes is followed.
func TestNegotiatedSerializerFollowsTheCaller(t *testing.T) {
	factory := serializer.NewCodecFactory(testScheme)
	caller := &changingCodecs{NegotiatedSerializer: factory.WithoutConversion()}
	caller.infos = factory.SupportedMediaTypes()
	fast := NewNegotiatedSerializer(caller)
	first := fast.SupportedMediaTypes()
	if again := fast.SupportedMediaTypes(); !sameSlice(first, again) {
		t.Error("the same answer was not reused")
	}
	caller.infos = caller.infos[:1]
	if got := fast.SupportedMediaTypes(); len(got) != 1 || got[0].MediaType != caller.infos[0].MediaType {
		t.Errorf("got %d media types after the caller changed to 1", len(got))
	}
	if NewNegotiatedSerializer(fast) != fast {
		t.Error("a wrapped serializer was wrapped again")
	}
	if NewNegotiatedSerializer(wiretest.ReferenceCodecs(factory)) == nil {
		t.Error("nil for a serializer with nothing to replace")
	}
	if _, wrapped := NewNegotiatedSerializer(wiretest.ReferenceCodecs(factory)).(*negotiatedSerializer); wrapped {
		t.Error("a serializer with nothing to replace was wrapped")
	}
}

// decodesLean reports whether d decodes a Pod from doc in less than half
// the allocations ref takes: the generated decoders cut strings and small
// values from a few chunks, where the reference allocates each.
func decodesLean(t *testing.T, d, ref runtime.Decoder, doc []byte) bool {
	t.Helper()
	allocs := func(d runtime.Decoder) float64 {
		return testing.AllocsPerRun(20, func() {
			if _, _, err := d.Decode(doc, nil, &corev1.Pod{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	return allocs(d) < allocs(ref)/2
}

type changingCodecs struct {
	runtime.NegotiatedSerializer
	infos []runtime.SerializerInfo
}

func (c *changingCodecs) SupportedMediaTypes() []runtime.SerializerInfo { return c.infos }

func decoderFor(t *testing.T, ns runtime.NegotiatedSerializer, mediaType string, gv schema.GroupVersion) runtime.Decoder {
	t.Helper()
	d, err := runtime.NewClientNegotiator(ns, gv).Decoder(mediaType, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustJSON(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustProto(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := protobuf.NewSerializer(testScheme, testScheme).Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
