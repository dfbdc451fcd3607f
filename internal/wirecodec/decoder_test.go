package wirecodec

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/kubeclient/client-go/internal/jsondecode/lex"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

var testScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return s
}()

// unregistered is a runtime.Object no scheme knows.
type unregistered struct {
	metav1.TypeMeta `json:",inline"`
	Name            string `json:"name"`
}

func (u *unregistered) DeepCopyObject() runtime.Object { c := *u; return &c }

// generatedLike stands in for jsondecode.Into: it decodes Pods and
// ConfigMaps the way sigs.k8s.io/json does, and leaves other types alone.
// For documents holding "fail-fast" it fails without touching obj, as a
// generated decoder may.
func generatedLike(l *lex.Lexer, obj runtime.Object) (bool, error) {
	data := l.Bytes()
	switch obj.(type) {
	case *corev1.Pod, *corev1.ConfigMap:
	default:
		return false, nil
	}
	if bytes.Contains(data, []byte("fail-fast")) {
		return true, errors.New("generated decoder gave up")
	}
	return true, utiljson.Unmarshal(data, obj)
}

// indexed calls f with data indexed by lex.Index, and reports false for
// data that Index rejects.
func indexed(data []byte, f func(*lex.Lexer) bool) bool {
	l, err := lex.Index(data)
	if err != nil {
		return false
	}
	defer l.Release()
	return f(l)
}

func newTestSerializers() (ref runtime.Serializer, fast *JSONSerializer) {
	ref = json.NewSerializerWithOptions(json.DefaultMetaFactory, testScheme, testScheme, json.SerializerOptions{})
	fast = NewJSONSerializer(ref, testScheme, testScheme)
	fast.into = generatedLike
	return ref, fast
}

// sameDecode decodes data with both serializers into fresh copies of into
// and fails on any difference in object, kind or error.
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
	if !reflect.DeepEqual(gotObj, wantObj) {
		t.Fatalf("%q into %T: object\n%#v\nreference\n%#v", data, into, gotObj, wantObj)
	}
	if !reflect.DeepEqual(gotGVK, wantGVK) {
		t.Fatalf("%q into %T: kind %v, reference %v", data, into, gotGVK, wantGVK)
	}
	if into != nil && !reflect.DeepEqual(fastInto, refInto) {
		t.Fatalf("%q into %T: target left as\n%#v\nreference\n%#v", data, into, fastInto, refInto)
	}
	if into != nil && (gotObj == fastInto) != (wantObj == refInto) {
		t.Fatalf("%q into %T: returned the target %v, reference %v", data, into, gotObj == fastInto, wantObj == refInto)
	}
}

func TestJSONSerializerDecodeMatchesReference(t *testing.T) {
	ref, fast := newTestSerializers()
	pod, err := stdjson.Marshal(wiretest.Pod("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	podBody := string(pod[strings.Index(string(pod), `"metadata"`):])
	docs := []string{
		string(pod),
		`{"apiVersion":"v1",` + podBody,
		`{"kind":"Pod",` + podBody,
		`{` + podBody,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"fail-fast"}}`,
		`{"kind":"ConfigMap","apiVersion":"v1","data":{"a":"b"}}`,
		`{"kind":"Pod","apiVersion":"apps/v1","metadata":{"name":"x"}}`,
		`{"kind":"Nope","apiVersion":"v1"}`,
		`{"kind":"Status","apiVersion":"v1","status":"Failure","code":404}`,
		`{"kind":"Pod","apiVersion":"a/b/c"}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[1]}}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}} trailing`,
		`{"kind":"Pod","apiVersion":"v1","metadata":`,
		"{\"\u212aind\":\"Pod\",\"apiVersion\":\"v1\"}",
		`{"KIND":"Pod","APIVERSION":"v1","metadata":{"name":"upper"}}`,
		`{"kind":"Pod","kind":"ConfigMap","apiVersion":"v1"}`,
		`{"kind":null,"apiVersion":"v1"}`,
		`[]`,
		``,
		`{"name":"plain","kind":"Unregistered","apiVersion":"test/v1"}`,
	}
	intos := []runtime.Object{nil, &corev1.Pod{}, &corev1.ConfigMap{}, &runtime.Unknown{}, &unstructured.Unstructured{}, &unregistered{},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "old", Labels: map[string]string{"a": "b"}}}}
	defaults := []*schema.GroupVersionKind{nil, {Version: "v1", Kind: "Pod"}, {Group: "apps", Version: "v1", Kind: "Deployment"}, {Kind: "ConfigMap"}}
	for _, doc := range docs {
		for _, into := range intos {
			for _, d := range defaults {
				sameDecode(t, ref, fast, []byte(doc), d, into)
			}
		}
	}
}

func TestJSONSerializerFastPathTaken(t *testing.T) {
	ref, fast := newTestSerializers()
	calls := 0
	fast.into = func(l *lex.Lexer, obj runtime.Object) (bool, error) {
		calls++
		return generatedLike(l, obj)
	}
	pod, _ := stdjson.Marshal(wiretest.Pod("web-1"))
	sameDecode(t, ref, fast, pod, nil, nil)
	if calls != 1 {
		t.Errorf("generated decoder called %d times, want 1", calls)
	}
}

// randomFrame builds a watch event frame from random parts, some odd.
func randomFrame(r *rand.Rand) string {
	var members []string
	for range r.Intn(5) {
		switch r.Intn(8) {
		case 0, 1:
			members = append(members, `"type":`+[]string{`"ADDED"`, `"MODIFIED"`, `""`, `null`, `1`, `"W\u0041T"`, `"é"`, `{}`}[r.Intn(8)])
		case 2, 3:
			members = append(members, `"object":`+[]string{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}`, `null`, `"s"`, `[1,2]`, wiretest.RandomJSON(r, 3)}[r.Intn(5)])
		case 4:
			members = append(members, `"kind":"WatchEvent"`, `"apiVersion":"v1"`, `"KIND":"X"`, `"\u0074ype":"DELETED"`, "\"\u212aind\":\"Y\"")
		case 5:
			members = append(members, `"Type":"ADDED"`, `"other":`+wiretest.RandomJSON(r, 2))
		default:
			members = append(members, wiretest.RandomString(r)+":"+wiretest.RandomJSON(r, 2))
		}
	}
	frame := "{" + strings.Join(members, ",") + "}"
	if r.Intn(3) == 0 {
		frame = wiretest.Mutate(r, frame)
	}
	return frame
}

func TestWatchEventMatchesReference(t *testing.T) {
	ref, fast := newTestSerializers()
	r := rand.New(rand.NewSource(3))
	fastHandled := 0
	for range 20000 {
		frame := []byte(randomFrame(r))
		for _, into := range []*metav1.WatchEvent{{}, {Type: "OLD", Object: runtime.RawExtension{Raw: make([]byte, 3, 64)}}} {
			sameDecode(t, ref, fast, frame, nil, into)
			if indexed(frame, func(l *lex.Lexer) bool { return decodeWatchEvent(l, into.DeepCopy(), false) }) {
				fastHandled++
			}
		}
	}
	if fastHandled < 5000 {
		t.Errorf("only %d frames decoded by the envelope fast path", fastHandled)
	}
}
