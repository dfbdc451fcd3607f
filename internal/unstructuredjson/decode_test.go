package unstructuredjson

import (
	stdjson "encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// checkDecode compares Decode with sigs.k8s.io/json decoding into a fresh
// map, and its TypeMeta with apimachinery's meta factory. Decode may give
// up on anything; it must not give up on input the reference accepts
// unless TypeMeta or a number needs the reference. It reports whether
// Decode decoded data.
func checkDecode(t *testing.T, data []byte) bool {
	t.Helper()
	want := map[string]any{}
	wantErr := utiljson.Unmarshal(data, &want)
	got, meta, err := Decode(data)
	if err != nil {
		if wantErr == nil && want != nil && !strings.ContainsAny(string(data), "eE.") && len(data) < 50000 && !strings.Contains(string(data), "00000000000000000000") {
			t.Fatalf("%q: gave up, the reference decoded %#v", data, want)
		}
		return false
	}
	if wantErr != nil {
		t.Fatalf("%q: decoded %#v, the reference failed: %v", data, got, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\ngot  %#v\nwant %#v", data, got, want)
	}
	// Decoding with sharing, a second time finding what the first kept,
	// gives the same.
	for i := 0; i < 2; i++ {
		shared, sharedMeta, err := DecodeSharing(data, testSharing)
		if err != nil || !reflect.DeepEqual(shared, want) || sharedMeta != meta {
			t.Fatalf("%q: decoding with sharing gave %#v, %+v, %v", data, shared, sharedMeta, err)
		}
	}
	if meta.Plain {
		ref, err := json.DefaultMetaFactory.Interpret(data)
		if err != nil && !strings.Contains(err.Error(), "GroupVersion") {
			t.Fatalf("%q: TypeMeta %+v, the reference failed: %v", data, meta, err)
		}
		if err == nil && (ref.Kind != meta.Kind || ref.GroupVersion().String() != normalizeGV(meta.APIVersion)) {
			t.Fatalf("%q: TypeMeta %+v, reference %v", data, meta, ref)
		}
	}
	return true
}

// testSharing is the DecodeSharing of checkDecode.
var testSharing = intern.NewDecodeSharing(nil)

func normalizeGV(s string) string {
	if s == "/" {
		return ""
	}
	return strings.TrimPrefix(s, "/")
}

func TestDecodeTable(t *testing.T) {
	pod, err := stdjson.Marshal(wiretest.Pod("web"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{
		string(pod),
		`{}`,
		`{"a":[],"b":{},"c":[{}],"d":null,"e":true,"f":false}`,
		`{"n":[0,-0,1,-1,9223372036854775807,-9223372036854775808,9223372036854775808,-9223372036854775809,123456789012345678,1234567890123456789,1.0,1e2,1E-2,-0.0,1e400]}`,
		`{"n":18446744073709551616}`,
		`{"n":1e400}`,
		`{"n":4.9e-324,"m":2.5e-400}`,
		`{"s":"a\"b\\c\/d\be\ff\ng\rh\ti\u0041\u00e9\u65e5\ud83d\ude00"}`,
		`{"s":"\ud800","t":"\ud800x","u":"\udc00\ud800","v":"\ud800\u0041","w":"\ud83d\ud83d\ude00"}`,
		"{\"s\":\"\xff\xfe\xc3\",\"t\":\"\xe6\x97\",\"u\":\"ok\xc3\xa9\",\"v\":\"\xed\xa0\x80\"}",
		"{\"\xff\":1,\"a\\u0000b\":2}",
		`{"a":1,"a":2,"b":{"c":1,"c":null}}`,
		`{"kind":"Pod","KIND":"Other","apiVersion":"v1","ApiVersion":null}`,
		`{"kind":5}`,
		"{\"\u212aind\":\"x\"}",
		`[]`,
		`null`,
		`{"a":1} x`,
		`{"a":01}`,
		`{"a":"\x"}`,
		"{\"a\":\"\x01\"}",
		`{"a":[1,]}`,
		`{"a" 1}`,
		` { "a" : [ 1 , { } ] } `,
		`{"a":`,
	} {
		checkDecode(t, []byte(doc))
	}
}

// TestDecodePendingValuesReused decodes documents one after the other, each
// after a failed one that left members and elements pending, and objects
// wide enough (more than a map's first group) for the sizing from the
// pending members to matter, duplicates included.
func TestDecodePendingValuesReused(t *testing.T) {
	var wide strings.Builder
	wide.WriteString(`{`)
	for i := range 40 {
		fmt.Fprintf(&wide, `"k%d":[%d,"v%d",{"n":%d}],`, i%30, i, i, i)
	}
	wide.WriteString(`"last":{}}`)
	for _, doc := range []string{
		`{"a":[1,{"b":[2,{"c":"x"`,
		wide.String(),
		`{"a":[1,2,3,{"x":1,"y":[4,5`,
		`{"a":[1,2,3],"b":{"c":[],"d":{"e":[{"f":1},{"f":2,"f":3}]}},"a":[4]}`,
		`{"uid":"u-1","resourceVersion":"9","name":"n","labels":{"app":"web","uid":"x"},"x":["a","a"]}`,
		`{"a":"` + strings.Repeat("long", 200) + `","b":["` + strings.Repeat("y", 600) + `"]}`,
	} {
		checkDecode(t, []byte(doc))
	}
}

// TestDecodeConcurrent is for -race: decoders running at once share the
// process-wide tables and the pool of pending values.
func TestDecodeConcurrent(t *testing.T) {
	pod, err := stdjson.Marshal(wiretest.Pod("web"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				checkDecode(t, pod)
			}
		}()
	}
	wg.Wait()
}

func TestDecodeDepthLimit(t *testing.T) {
	for _, depth := range []int{maxDepth - 2, maxDepth - 1, maxDepth, maxDepth + 1} {
		doc := `{"a":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
		checkDecode(t, []byte(doc))
		doc = strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
		checkDecode(t, []byte(doc))
	}
}

func TestDecodeRandom(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	decoded := 0
	for range 30000 {
		doc := `{"kind":` + wiretest.RandomString(r) + `,"x":` + wiretest.RandomJSON(r, 5) + `}`
		if r.Intn(3) == 0 {
			doc = wiretest.Mutate(r, doc)
		}
		if checkDecode(t, []byte(doc)) {
			decoded++
		}
	}
	if decoded < 10000 {
		t.Errorf("only %d documents decoded", decoded)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"a":[1,"b",{"c":null}],"n":1.5e3}`))
	f.Add([]byte(`{"s":"\ud800\u00e9\\"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}

func BenchmarkDecodePod(b *testing.B) {
	pod, err := stdjson.Marshal(wiretest.Pod("web"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("reference", func(b *testing.B) {
		b.SetBytes(int64(len(pod)))
		b.ReportAllocs()
		for b.Loop() {
			m := map[string]any{}
			if err := utiljson.Unmarshal(pod, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unstructuredjson", func(b *testing.B) {
		b.SetBytes(int64(len(pod)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := Decode(pod); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestDecodeSharingSharesFieldsTrees decodes documents twice with one
// DecodeSharing: a fieldsV1 tree of objects only is the same map both
// times; one holding anything else, or not under fieldsV1, is not.
func TestDecodeSharingSharesFieldsTrees(t *testing.T) {
	tree := `{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{}}`
	for _, tc := range []struct {
		name, doc string
		path      []string
		shared    bool
	}{
		{"managed fields", `{"metadata":{"managedFields":[{"manager":"m","fieldsV1":` + tree + `}]}}`, []string{"metadata", "managedFields", "0", "fieldsV1"}, true},
		{"spaced", `{"fieldsV1": ` + tree + ` }`, []string{"fieldsV1"}, true},
		{"string inside", `{"fieldsV1":{"f:a":{"x":"y"}}}`, []string{"fieldsV1"}, false},
		{"array inside", `{"fieldsV1":{"f:a":[]}}`, []string{"fieldsV1"}, false},
		{"fieldsV1 inside", `{"fieldsV1":{"fieldsV1":{}}}`, []string{"fieldsV1"}, false},
		{"other member", `{"fields":` + tree + `}`, []string{"fields"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			share := intern.NewDecodeSharing(nil)
			var trees [2]map[string]any
			for i := range trees {
				checkDecode(t, []byte(tc.doc))
				obj, _, err := DecodeSharing([]byte(tc.doc), share)
				if err != nil {
					t.Fatal(err)
				}
				var v any = obj
				for _, p := range tc.path {
					switch x := v.(type) {
					case map[string]any:
						v = x[p]
					case []any:
						v = x[0]
					}
				}
				trees[i] = v.(map[string]any)
			}
			if got := reflect.ValueOf(trees[0]).UnsafePointer() == reflect.ValueOf(trees[1]).UnsafePointer(); got != tc.shared {
				t.Errorf("tree shared: %v, want %v", got, tc.shared)
			}
		})
	}
}
