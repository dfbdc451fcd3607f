// Package decoderstest checks the JSON decoders cmd/codegen -decoders
// generates into an API package against apimachinery's JSON decoding, for
// that package's tests (the generator writes zz_generated.decoders_test.go
// calling it). It is an addition of this library, like package decoders.
package decoderstest

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"

	"github.com/kubeclient/client-go/internal/apifill"
	"github.com/kubeclient/client-go/internal/jsondecode/jsontest"
	"github.com/kubeclient/client-go/pkg/decoders"
)

// CheckJSON checks the registered JSON decoder of each of objs' types: it
// decodes random objects of the type (encoded with encoding/json) and
// mutated and corrupted documents of them, into empty and populated
// objects, as this library's REST client does (the registered decoder,
// then sigs.k8s.io/json again when the decoder declines) and with
// sigs.k8s.io/json alone, as apimachinery's JSON serializer does, and
// fails t unless the objects are reflect.DeepEqual and the errors equal.
// A type without a registered decoder fails too.
//
// It runs a few rounds per type; KUBECLIENT_FUZZ_LONG=1 runs 200, or the
// number it gives when larger.
func CheckJSON(t *testing.T, objs ...runtime.Object) {
	t.Helper()
	for i, proto := range objs {
		t.Run(fmt.Sprintf("%T", proto), func(t *testing.T) {
			if !decoders.RegisteredJSON(proto) {
				t.Fatalf("%T has no registered JSON decoder", proto)
			}
			r := rand.New(rand.NewSource(int64(i)))
			for round := range rounds() {
				seed := int64(i*100003 + round)
				obj := newOf(proto)
				apifill.NewFiller(seed).Fill(obj)
				data, err := json.Marshal(obj)
				if err != nil {
					t.Fatal(err)
				}
				prev := newOf(proto)
				apifill.NewFiller(seed + 7).Fill(prev)
				check(t, data, newOf(proto))
				check(t, data, prev)
				doc := jsontest.MustParse(data)
				for range 4 {
					m := jsontest.Mutate(r, doc)
					check(t, []byte(m), newOf(proto))
					check(t, []byte(m), prev)
					check(t, []byte(jsontest.Corrupt(r, m)), newOf(proto))
				}
			}
		})
	}
}

// rounds is the number of random objects per type.
func rounds() int {
	long := os.Getenv("KUBECLIENT_FUZZ_LONG")
	if long == "" {
		return 3
	}
	if n, err := strconv.Atoi(long); err == nil && n > 1 {
		return n
	}
	return 200
}

func newOf(obj runtime.Object) runtime.Object {
	return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
}

// check decodes data into two copies of start, with the reference and as
// the REST client does, and fails unless objects and errors are equal.
func check(t *testing.T, data []byte, start runtime.Object) {
	t.Helper()
	want := start.DeepCopyObject()
	wantErr := kjson.UnmarshalCaseSensitivePreserveInts(data, want)
	got := start.DeepCopyObject()
	handled, gotErr := decoders.UnmarshalJSON(data, got)
	if !handled {
		t.Fatalf("%T: not handled", start)
	}
	if gotErr != nil {
		gotErr = kjson.UnmarshalCaseSensitivePreserveInts(data, got)
	}
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		t.Fatalf("%T: error %v, reference %v\ninput: %.3000s", start, gotErr, wantErr, data)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%T: decoded object differs from the reference's (got vs want) at %s\ninput: %.3000s",
			start, jsontest.FirstDiff("", reflect.ValueOf(got), reflect.ValueOf(want)), data)
	}
}
