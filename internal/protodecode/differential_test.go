package protodecode

import (
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/apifill"
	"github.com/kubeclient/client-go/internal/intern"
)

// message is what the generated k8s.io/api types implement.
type message interface {
	runtime.Object
	Reset()
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// reference decodes data as apimachinery's protobuf serializer does: reset,
// then the type's own Unmarshal.
func reference(data []byte, obj message) error {
	obj.Reset()
	return obj.Unmarshal(data)
}

// ours decodes data as internal/wirecodec does: reset, IntoSharing with
// share (nil: Into; fresh: obj is new), and on error reset and the type's
// own Unmarshal.
func ours(t testing.TB, data []byte, obj message, share *intern.DecodeSharing, fresh bool) error {
	obj.Reset()
	handled, err := IntoSharing(data, obj, share, fresh)
	if !handled {
		t.Fatalf("%T: no generated decoder", obj)
	}
	if err == nil {
		return nil
	}
	obj.Reset()
	return obj.Unmarshal(data)
}

// rounds is the number of random objects per type: more with
// KUBECLIENT_FUZZ_LONG=1 or a count.
func rounds(short int) int {
	v := os.Getenv("KUBECLIENT_FUZZ_LONG")
	if v == "" {
		if raceDetector {
			return (short + 3) / 4
		}
		return short
	}
	if n, err := strconv.Atoi(v); err == nil && n > 1 {
		return n
	}
	return short * 50
}

// compare decodes data with both decoders, into fresh and into populated
// objects, and fails unless objects and errors are identical.
func compare(t testing.TB, data []byte, typ reflect.Type, populated message, what string) {
	t.Helper()
	want := reflect.New(typ).Interface().(message)
	wantErr := reference(data, want)
	// Each decode runs without and with sharing; the second with sharing
	// finds what the first kept.
	for i, got := range []message{reflect.New(typ).Interface().(message), populated} {
		for _, share := range []*intern.DecodeSharing{nil, testSharing, testSharing} {
			gotErr := ours(t, data, got, share, false)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("%s %v (into %d, sharing %v): error %v, reference %v", what, typ, i, share != nil, gotErr, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %v (into %d, sharing %v): objects differ\n%s", what, typ, i, share != nil, diff(want, got))
			}
		}
	}
	// New objects, as a watch decodes them: the second reuses the spec
	// the first kept. Both stay alive until compared.
	var fresh [2]message
	for i := range fresh {
		fresh[i] = reflect.New(typ).Interface().(message)
		gotErr := ours(t, data, fresh[i], testSharing, true)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%s %v (new object %d): error %v, reference %v", what, typ, i, gotErr, wantErr)
		}
	}
	for i, got := range fresh {
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %v (new object %d): objects differ\n%s", what, typ, i, diff(want, got))
		}
	}
}

// testSharing is the Sharing of the differential tests: small tables, so
// that values also get evicted.
var testSharing = intern.NewDecodeSharing(intern.NewBytes(64, 16<<10))

// diff names the first differing field path.
func diff(a, b any) string {
	var walk func(x, y reflect.Value, path string) string
	walk = func(x, y reflect.Value, path string) string {
		if reflect.DeepEqual(x.Interface(), y.Interface()) {
			return ""
		}
		switch x.Kind() {
		case reflect.Pointer:
			if x.IsNil() || y.IsNil() {
				return path + fmt.Sprintf(": %v vs %v", x.IsNil(), y.IsNil())
			}
			return walk(x.Elem(), y.Elem(), path)
		case reflect.Struct:
			for i := 0; i < x.NumField(); i++ {
				if !x.Type().Field(i).IsExported() {
					continue
				}
				if d := walk(x.Field(i), y.Field(i), path+"."+x.Type().Field(i).Name); d != "" {
					return d
				}
			}
		case reflect.Slice:
			if x.Len() == y.Len() && !x.IsNil() && !y.IsNil() {
				for i := 0; i < x.Len(); i++ {
					if d := walk(x.Index(i), y.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
						return d
					}
				}
			}
		}
		return fmt.Sprintf("%s: %#v\nvs %#v", path, x.Interface(), y.Interface())
	}
	return walk(reflect.ValueOf(a), reflect.ValueOf(b), "")
}

func TestDifferentialRandom(t *testing.T) {
	n := rounds(20)
	for ti, proto := range generatedTypes() {
		typ := reflect.TypeOf(proto).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			for i := 0; i < n; i++ {
				f := apifill.NewFiller(int64(ti*100003 + i))
				src := reflect.New(typ).Interface().(message)
				f.Fill(src)
				data, err := src.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				// Valid input must not need the fallback.
				direct := reflect.New(typ).Interface().(message)
				if _, err := Into(data, direct); err != nil {
					t.Fatalf("Into on a valid %v: %v", typ, err)
				}
				populated := reflect.New(typ).Interface().(message)
				f.Fill(populated)
				compare(t, data, typ, populated, "random")
			}
		})
	}
}

func TestDifferentialCorrupted(t *testing.T) {
	n := rounds(10)
	for ti, proto := range generatedTypes() {
		typ := reflect.TypeOf(proto).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewSource(int64(ti)))
			for i := 0; i < n; i++ {
				f := apifill.NewFiller(int64(ti*7919 + i))
				src := reflect.New(typ).Interface().(message)
				f.Fill(src)
				data, err := src.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range mutations(r, data) {
					populated := reflect.New(typ).Interface().(message)
					f.Fill(populated)
					compare(t, m, typ, populated, "mutated")
				}
			}
		})
	}
}
