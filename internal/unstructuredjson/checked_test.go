package unstructuredjson

import (
	"math/rand"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"

	"github.com/kubeclient/client-go/internal/jsonscan"
	"github.com/kubeclient/client-go/internal/wirecodec"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestCheckedDecodeMatchesDecode: a document whose syntax was checked
// before decodes, reading its tokens as checked text, to what it decodes
// to with every token checked.
func TestCheckedDecodeMatchesDecode(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	docs := []string{
		`{"a":[1,-2,3.5,-0.5e-7,1E9,12345678901234567890],"b":{"c":null,"d":true,"e":false}}`,
		`{"s":"\ud800\u00e9\\\"\/\b\f\n\r\t","t":"caf\u00e9 été","u":"\u0000"}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","labels":{}},"spec":{"containers":[]}}`,
	}
	for range 3000 {
		docs = append(docs, `{"kind":`+wiretest.RandomString(r)+`,"x":`+wiretest.RandomJSON(r, 5)+`}`)
	}
	compared := 0
	for _, doc := range docs {
		data := []byte(doc)
		if !jsonscan.Check(data, nil) {
			continue
		}
		want, wantMeta, wantErr := decode(data, nil, false)
		got, gotMeta, gotErr := decode(data, nil, true)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) || gotMeta != wantMeta {
			t.Fatalf("%s:\nchecked   %#v %+v %v\nunchecked %#v %+v %v", doc, got, gotMeta, gotErr, want, wantMeta, wantErr)
		}
		compared++
	}
	if compared < 2000 {
		t.Errorf("only %d documents compared", compared)
	}
}

// TestWatchEventObjectArrivesChecked: the object of a watch event that
// wirecodec's DecodeFrame checked with its frame is decoded as checked
// text (the record DecodeFrame left is consumed), to the reference's
// result; any other bytes are checked as they are read.
func TestWatchEventObjectArrivesChecked(t *testing.T) {
	events := wirecodec.NewJSONSerializer(json.NewSerializerWithOptions(json.DefaultMetaFactory, metaScheme, metaScheme, json.SerializerOptions{}), metaScheme, metaScheme)
	ref := json.NewSerializerWithOptions(json.DefaultMetaFactory, creater{}, metaScheme, json.SerializerOptions{})
	objects := NewSerializer(ref, creater{})
	frame := []byte(`{"type":"MODIFIED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","resourceVersion":"12"},"spec":{"priority":-3,"overhead":1.5,"nodeName":"caf\u00e9"}}}`)

	tests := []struct {
		name        string
		viaFrame    bool
		wantChecked bool
	}{
		{"object of a checked frame", true, true},
		{"bytes that did not come from a frame", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			event := &metav1.WatchEvent{}
			if _, _, err := events.DecodeFrame(nil, frame, nil, event); err != nil {
				t.Fatal(err)
			}
			raw := event.Object.Raw
			if !tt.viaFrame {
				raw = append([]byte(nil), raw...)
			}
			got, _, err := objects.Decode(raw, nil, &unstructured.Unstructured{})
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := ref.Decode(raw, nil, &unstructured.Unstructured{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded %#v, reference %#v", got, want)
			}
			// The record of a checked object is consumed by its decode.
			if left := wirecodec.TakeCheckedEventObject(event.Object.Raw); left == tt.wantChecked {
				t.Errorf("record of the frame's object left after the decode: %v, want %v", left, !tt.wantChecked)
			}
		})
	}
}
