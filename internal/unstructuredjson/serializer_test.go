package unstructuredjson

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// metaScheme and creater mirror the dynamic client's: the meta kinds
// typed, every other kind Unstructured.
var metaScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return s
}()

type creater struct{}

func (creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	if obj, err := metaScheme.New(gvk); err == nil {
		return obj, nil
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// kindsCreater is creater telling which kinds it creates as Unstructured,
// as the dynamic client's does: the fast path then skips New for them.
type kindsCreater struct{ creater }

func (kindsCreater) CreatesUnstructured(gvk schema.GroupVersionKind) bool {
	for known := range metaScheme.AllKnownTypes() {
		if known.Kind == gvk.Kind {
			return false
		}
	}
	return true
}

func sameDecode(t *testing.T, ref, fast runtime.Decoder, data []byte, defaults *schema.GroupVersionKind, into runtime.Object) {
	t.Helper()
	var refInto, fastInto runtime.Object
	if into != nil {
		refInto, fastInto = into.DeepCopyObject(), into.DeepCopyObject()
	}
	wantObj, wantGVK, wantErr := ref.Decode(data, defaults, refInto)
	gotObj, gotGVK, gotErr := fast.Decode(data, defaults, fastInto)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%q into %T: error %v, reference %v", data, into, gotErr, wantErr)
	}
	if !reflect.DeepEqual(gotObj, wantObj) || !reflect.DeepEqual(gotGVK, wantGVK) {
		t.Fatalf("%q into %T:\ngot  %#v %v\nwant %#v %v", data, into, gotObj, gotGVK, wantObj, wantGVK)
	}
	if into != nil && !reflect.DeepEqual(fastInto, refInto) {
		t.Fatalf("%q into %T: target\n%#v\nreference\n%#v", data, into, fastInto, refInto)
	}
}

func TestSerializerMatchesReference(t *testing.T) {
	ref := json.NewSerializerWithOptions(json.DefaultMetaFactory, creater{}, metaScheme, json.SerializerOptions{})
	for _, c := range []runtime.ObjectCreater{creater{}, kindsCreater{}} {
		t.Run(fmt.Sprintf("%T", c), func(t *testing.T) {
			serializerMatchesReference(t, ref, NewSerializer(ref, c))
		})
	}
}

func serializerMatchesReference(t *testing.T, ref, fast runtime.Decoder) {
	pod, err := stdjson.Marshal(wiretest.Pod("web"))
	if err != nil {
		t.Fatal(err)
	}
	podNoType := `{` + string(pod[strings.Index(string(pod), `"metadata"`):])
	docs := []string{
		string(pod),
		podNoType,
		`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[` + podNoType + `,` + string(pod) + `,{"kind":"Other"},{"apiVersion":"x/v1"}]}`,
		`{"kind":"PodList","apiVersion":"v1","items":[]}`,
		`{"kind":"PodList","apiVersion":"v1","items":null}`,
		`{"kind":"PodList","apiVersion":"v1","items":[null]}`,
		`{"kind":"PodList","apiVersion":"v1","items":[5]}`,
		`{"kind":"PodList","apiVersion":"v1","items":{}}`,
		`{"kind":"List","apiVersion":"v1"}`,
		`{"apiVersion":"v1","items":[]}`,
		`{"kind":"Status","apiVersion":"v1","status":"Failure","code":410}`,
		`{"kind":"Status","apiVersion":"example.com/v1","status":"Failure"}`,
		`{"kind":"Widget","apiVersion":"example.com/v1","spec":{"n":1.5,"m":12}}`,
		`{"kind":"Widget","apiVersion":"a/b/c"}`,
		`{"kind":"Widget","APIVERSION":"v1","apiVersion":"a/b/c"}`,
		`{"kind":"Widget","KIND":"","apiVersion":"v1"}`,
		`{"kind":"","KIND":"Widget","apiVersion":"v1"}`,
		`{"kind":7,"apiVersion":"v1"}`,
		`{"kind":"Widget","apiVersion":"v1","n":1e400}`,
		`{"kind":"Widget","apiVersion":"v1"} x`,
		`{"kind":"Widget"}`,
		`{"apiVersion":"v1"}`,
		`[]`,
		`null`,
	}
	intos := []runtime.Object{nil, &unstructured.Unstructured{}, &unstructured.Unstructured{Object: map[string]any{"old": "x"}},
		&unstructured.UnstructuredList{}, &unstructured.UnstructuredList{Object: map[string]any{"old": "x"}}, &metav1.Status{}}
	defaults := []*schema.GroupVersionKind{nil, {Version: "v1", Kind: "Widget"}, {Group: "example.com", Version: "v2"}}
	for _, doc := range docs {
		for _, into := range intos {
			for _, d := range defaults {
				sameDecode(t, ref, fast, []byte(doc), d, into)
			}
		}
	}
	r := rand.New(rand.NewSource(6))
	for range 5000 {
		doc := `{"kind":` + wiretest.RandomString(r) + `,"apiVersion":` + wiretest.RandomString(r) + `,"items":` + wiretest.RandomJSON(r, 3) + `}`
		if r.Intn(3) == 0 {
			doc = wiretest.Mutate(r, doc)
		}
		for _, into := range intos {
			sameDecode(t, ref, fast, []byte(doc), nil, into)
		}
	}
}

// TestForCacheDecodesAsDecode: the decoder ForCache returns (which
// wirecodec.ForContext gives marked requests, and reports to their
// SharedDecodes) decodes as Decode.
func TestForCacheDecodesAsDecode(t *testing.T) {
	ref := json.NewSerializerWithOptions(json.DefaultMetaFactory, creater{}, metaScheme, json.SerializerOptions{})
	s := NewSerializer(ref, kindsCreater{})
	share := intern.NewDecodeSharing(nil)
	doc := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}]}}`)
	list := []byte(`{"apiVersion":"v1","kind":"PodList","metadata":{},"items":[]}`)
	var decodes wirecodec.SharedDecodes
	marked := wirecodec.WithSharedDecodes(wirecodec.WithCacheDecoding(context.Background(), share), &decodes)
	for _, tc := range []struct {
		name    string
		decoder runtime.Decoder
	}{
		{"Decode", s},
		{"ForCache", s.ForCache(share)},
		{"through ForContext", wirecodec.ForContext(marked, s)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, data := range [][]byte{doc, list} {
				obj, _, err := tc.decoder.Decode(data, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := ref.Decode(data, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(obj, want) {
					t.Errorf("decoded %#v, reference %#v", obj, want)
				}
			}
		})
	}
	if !decodes.Seen() {
		t.Error("ForContext did not report its sharing decoder")
	}
}
