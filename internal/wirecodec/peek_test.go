package wirecodec

import (
	"math/rand"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"

	"github.com/kubeclient/client-go/internal/jsondecode/lex"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// checkPeek fails when peekTypeMeta answers data differently from
// apimachinery's meta factory; giving up is always allowed.
func checkPeek(t *testing.T, data string) (ok bool) {
	t.Helper()
	var apiVersionRaw, kindRaw []byte
	indexed([]byte(data), func(l *lex.Lexer) bool {
		apiVersionRaw, kindRaw, ok = peekTypeMeta(l)
		return ok
	})
	apiVersion, kind := string(apiVersionRaw), string(kindRaw)
	if !ok {
		return false
	}
	want, err := json.DefaultMetaFactory.Interpret([]byte(data))
	gv, gvErr := schema.ParseGroupVersion(apiVersion)
	switch {
	case err != nil && gvErr != nil && err.Error() == gvErr.Error():
		return true
	case err != nil:
		t.Fatalf("%q: peek answered %q %q, reference failed: %v", data, apiVersion, kind, err)
	case gvErr != nil:
		t.Fatalf("%q: peek answered %q, reference %v", data, apiVersion, want)
	}
	if got := gv.WithKind(kind); got != *want {
		t.Fatalf("%q: peek answered %v, reference %v", data, got, *want)
	}
	return true
}

func TestPeekTypeMeta(t *testing.T) {
	for _, tc := range []struct {
		in     string
		wantOK bool
	}{
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"kind":"x"}}`, true},
		{`{"apiVersion":"apps/v1","kind":"Deployment"}`, true},
		{`{"KIND":"Pod","ApiVersion":"v1"}`, true},
		{`{"kind":"A","kind":"B"}`, true},
		{`{"kind":"A","kind":null}`, true},
		{`{}`, true},
		{` {"spec":{}} `, true},
		{`{"kind":1}`, false},
		{`{"kind":"P\u006fd"}`, false},
		{`{"\u006bind":"Pod"}`, false},
		{"{\"\u212aind\":\"Pod\"}", false},
		{"{\"kind\":\"Pod\xff\"}", false},
		{`{"kind":"Pod"} x`, false},
		{`{"kind":"Pod"`, false},
		{`[]`, false},
		{`null`, false},
		{`{"a":01}`, false},
	} {
		if got := checkPeek(t, tc.in); got != tc.wantOK {
			t.Errorf("peekTypeMeta(%q) ok = %v, want %v", tc.in, got, tc.wantOK)
		}
	}
}

func TestPeekTypeMetaRandom(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	handled := 0
	for range 20000 {
		doc := `{"kind":` + wiretest.RandomString(r) + `,"apiVersion":` + wiretest.RandomString(r) + `,"x":` + wiretest.RandomJSON(r, 3) + `}`
		if r.Intn(2) == 0 {
			doc = wiretest.Mutate(r, doc)
		}
		if checkPeek(t, doc) {
			handled++
		}
	}
	if handled < 1000 {
		t.Errorf("only %d documents handled without the reference", handled)
	}
}
