package dynamic

import (
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/cbor"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"

	"github.com/kubeclient/client-go/features"
	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/unstructuredjson"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// coreV1 is the group version under which servers send the meta kinds this
// package needs typed: Status, WatchEvent and the option types.
var coreV1 = schema.GroupVersion{Version: "v1"}

// metaScheme holds those meta kinds and nothing else; every other kind a
// server sends is decoded as unstructured.
var metaScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, coreV1)
	return s
}()

// optionsCodec turns Create/Get/List/... options into query parameters.
var optionsCodec = runtime.NewParameterCodec(metaScheme)

// unstructuredCreater creates the meta kinds of metaScheme as their Go types
// and any other kind as an Unstructured carrying that kind.
type unstructuredCreater struct{}

func (unstructuredCreater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	if obj, err := metaScheme.New(gvk); err == nil {
		return obj, nil
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// metaKinds are the kind names metaScheme creates as Go types, in any
// group version (some are unversioned).
var metaKinds = func() map[string]bool {
	kinds := map[string]bool{}
	for gvk := range metaScheme.AllKnownTypes() {
		kinds[gvk.Kind] = true
	}
	return kinds
}()

// CreatesUnstructured tells unstructuredjson that New makes gvk a new
// Unstructured: gvk is no kind of metaScheme.
func (unstructuredCreater) CreatesUnstructured(gvk schema.GroupVersionKind) bool {
	return !metaKinds[gvk.Kind]
}

// wireSerializers is the runtime.NegotiatedSerializer of the dynamic
// client: JSON always, CBOR when the ClientsAllowCBOR gate is on.
type wireSerializers struct {
	infos []runtime.SerializerInfo
}

func newWireSerializers() wireSerializers {
	// Objects and events decode through the one-pass decoders of
	// unstructuredjson and wirecodec, which leave whatever they do not
	// handle exactly as apimachinery would to apimachinery's serializer.
	// With the generated decoders switched off (fastpath.GeneratedDecoders)
	// apimachinery's serializers decode everything.
	var objects, events runtime.Serializer = json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreater{}, metaScheme, json.SerializerOptions{}),
		json.NewSerializerWithOptions(json.DefaultMetaFactory, metaScheme, metaScheme, json.SerializerOptions{})
	if fastpath.GeneratedDecoders.On() {
		objects = unstructuredjson.NewSerializer(objects, unstructuredCreater{})
		events = wirecodec.NewJSONSerializer(events, metaScheme, metaScheme)
	}
	pretty := json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreater{}, metaScheme, json.SerializerOptions{Pretty: true})
	infos := []runtime.SerializerInfo{{
		MediaType:        runtime.ContentTypeJSON,
		MediaTypeType:    "application",
		MediaTypeSubType: "json",
		EncodesAsText:    true,
		Serializer:       objects,
		PrettySerializer: pretty,
		StreamSerializer: &runtime.StreamSerializerInfo{
			EncodesAsText: true,
			Serializer:    events,
			Framer:        json.Framer,
		},
	}}
	if features.FeatureGates().Enabled(features.ClientsAllowCBOR) {
		infos = append(infos, runtime.SerializerInfo{
			MediaType:        runtime.ContentTypeCBOR,
			MediaTypeType:    "application",
			MediaTypeSubType: "cbor",
			Serializer:       cbor.NewSerializer(unstructuredCreater{}, metaScheme),
			StreamSerializer: &runtime.StreamSerializerInfo{
				Serializer: cbor.NewSerializer(metaScheme, metaScheme, cbor.Transcode(false)),
				Framer:     cbor.NewFramer(),
			},
		})
	}
	return wireSerializers{infos: infos}
}

func (s wireSerializers) SupportedMediaTypes() []runtime.SerializerInfo { return s.infos }

// EncoderForVersion ignores gv: unstructured objects are sent with the
// apiVersion and kind they carry, and meta kinds are stamped with theirs.
func (s wireSerializers) EncoderForVersion(encoder runtime.Encoder, _ runtime.GroupVersioner) runtime.Encoder {
	return kindStampingEncoder{encoder: encoder}
}

// DecoderToVersion returns decoder unchanged: nothing is converted.
func (s wireSerializers) DecoderToVersion(decoder runtime.Decoder, _ runtime.GroupVersioner) runtime.Decoder {
	return decoder
}

// kindStampingEncoder encodes unstructured objects as they are, even with an
// empty apiVersion or kind (the server reports what is missing), and typed
// meta objects such as DeleteOptions with their "v1" kind filled in.
type kindStampingEncoder struct {
	encoder runtime.Encoder
}

func (e kindStampingEncoder) Encode(obj runtime.Object, w io.Writer) error {
	if _, ok := obj.(runtime.Unstructured); ok {
		return e.encoder.Encode(obj, w)
	}
	kinds, _, err := metaScheme.ObjectKinds(obj)
	if err != nil {
		return fmt.Errorf("dynamic client cannot encode %T: %w", obj, err)
	}
	typeMeta := obj.GetObjectKind()
	saved := typeMeta.GroupVersionKind()
	typeMeta.SetGroupVersionKind(kinds[0])
	defer typeMeta.SetGroupVersionKind(saved)
	return e.encoder.Encode(obj, w)
}

func (e kindStampingEncoder) Identifier() runtime.Identifier {
	return runtime.Identifier("dynamic-kind-stamping:" + string(e.encoder.Identifier()))
}
