package jsondecode

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
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/jsondecode/lex"
)

// rounds is the number of random objects per type: a few in a normal run,
// 200 with KUBECLIENT_FUZZ_LONG=1, or the number KUBECLIENT_FUZZ_LONG
// gives when it is larger.
func rounds() int {
	long := os.Getenv("KUBECLIENT_FUZZ_LONG")
	if long == "" {
		if raceDetector {
			return 1
		}
		return 2
	}
	if n, err := strconv.Atoi(long); err == nil && n > 1 {
		return n
	}
	return 200
}

func newOf(obj runtime.Object) runtime.Object {
	return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
}

// reference decodes data into obj as apimachinery's JSON serializer does.
func reference(data []byte, obj runtime.Object) error {
	return kjson.UnmarshalCaseSensitivePreserveInts(data, obj)
}

// viaInto decodes as a caller of Into does: Into first, the reference
// again when Into fails.
func viaInto(t testing.TB, data []byte, obj runtime.Object) error {
	handled, err := Into(data, obj)
	if !handled {
		t.Fatalf("%T: not handled", obj)
	}
	if err != nil {
		return reference(data, obj)
	}
	return nil
}

// check decodes data into two copies of start, by the reference and via
// Into, and fails unless the objects are reflect.DeepEqual and the errors
// equal.
func check(t testing.TB, data []byte, start runtime.Object) {
	t.Helper()
	want := start.DeepCopyObject()
	wantErr := reference(data, want)
	// Without and with decode-time sharing, the second time finding what
	// the first kept.
	for _, share := range []*intern.DecodeSharing{nil, testSharing, testSharing} {
		got := start.DeepCopyObject()
		gotErr := viaIntoSharing(t, data, got, share)
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
			t.Fatalf("%T (sharing %v): error %v, reference %v\ninput: %s", start, share != nil, gotErr, wantErr, data)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%T (sharing %v): decoded object differs from the reference's (got vs want) at %s\ninput: %.3000s", start, share != nil, firstDiff("", reflect.ValueOf(got), reflect.ValueOf(want)), data)
		}
	}
	// A lexer without the container index, as Index makes for long
	// documents.
	got := start.DeepCopyObject()
	gotErr := viaUnindexed(t, data, got)
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		t.Fatalf("%T (unindexed): error %v, reference %v\ninput: %s", start, gotErr, wantErr, data)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%T (unindexed): decoded object differs from the reference's (got vs want) at %s\ninput: %.3000s", start, firstDiff("", reflect.ValueOf(got), reflect.ValueOf(want)), data)
	}
}

// testSharing is the DecodeSharing of check.
var testSharing = intern.NewDecodeSharing(intern.NewBytes(64, 16<<10))

// viaIntoSharing is viaLexer with an indexed lexer sharing with share
// (nil: Into itself).
func viaIntoSharing(t testing.TB, data []byte, obj runtime.Object, share *intern.DecodeSharing) error {
	if share == nil {
		return viaInto(t, data, obj)
	}
	return viaLexer(t, data, obj, lex.Index, share)
}

// viaUnindexed is viaLexer with a lexer from lex.Unindexed.
func viaUnindexed(t testing.TB, data []byte, obj runtime.Object) error {
	return viaLexer(t, data, obj, lex.Unindexed, nil)
}

// viaLexer is viaInto through IntoIndexed, with a lexer made by newLexer
// and sharing with share.
func viaLexer(t testing.TB, data []byte, obj runtime.Object, newLexer func([]byte) (*lex.Lexer, error), share *intern.DecodeSharing) error {
	l, err := newLexer(data)
	if err != nil {
		return reference(data, obj)
	}
	defer l.Release()
	lex.SetShare(l, share)
	handled, err := IntoIndexed(l, obj)
	if !handled {
		t.Fatalf("%T: not handled", obj)
	}
	if err != nil {
		return reference(data, obj)
	}
	return nil
}

func TestIntoMatchesReferenceOnRandomObjects(t *testing.T) {
	for i, proto := range generatedTypes() {
		t.Run(fmt.Sprintf("%T", proto), func(t *testing.T) {
			t.Parallel()
			checkRandom(t, i, proto)
		})
	}
}

func TestIntoMatchesReferenceOnMutatedInput(t *testing.T) {
	for i, proto := range generatedTypes() {
		t.Run(fmt.Sprintf("%T", proto), func(t *testing.T) {
			t.Parallel()
			checkMutated(t, i, proto)
		})
	}
}

// checkRandom checks random objects of proto's type, the i-th type of a
// test, encoded with encoding/json, decoded into empty and populated
// objects.
func checkRandom(t *testing.T, i int, proto runtime.Object) {
	for round := range rounds() {
		seed := int64(i*100003 + round)
		obj := newOf(proto)
		apifill.NewFiller(seed).Fill(obj)
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		check(t, data, newOf(proto))
		// Into a populated object: merge semantics.
		prev := newOf(proto)
		apifill.NewFiller(seed + 7).Fill(prev)
		check(t, data, prev)
	}
}

// checkMutated checks mutated and corrupted documents of random objects
// of proto's type, the i-th type of a test.
func checkMutated(t *testing.T, i int, proto runtime.Object) {
	r := rand.New(rand.NewSource(int64(i)))
	for round := range rounds() {
		obj := newOf(proto)
		apifill.NewFiller(int64(i*7919 + round)).Fill(obj)
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		doc := mustParseNode(data)
		prev := newOf(proto)
		apifill.NewFiller(int64(round)).Fill(prev)
		for range 4 {
			m := mutate(r, doc)
			check(t, []byte(m), newOf(proto))
			check(t, []byte(m), prev)
			check(t, []byte(corrupt(r, m)), newOf(proto))
		}
	}
}
