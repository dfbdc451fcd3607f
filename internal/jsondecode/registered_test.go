package jsondecode

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	stablev1 "github.com/kubeclient/client-go/examples/crd/apis/stable/v1"
	"github.com/kubeclient/client-go/internal/apifill"
	"github.com/kubeclient/client-go/pkg/decoders"
)

// crdTypes are the objects of examples/crd, a user's CRD package: their
// decoders are generated into that package (zz_generated.decoders.go, by
// cmd/codegen -decoders) and registered with package decoders, where Into
// finds them.
func crdTypes() []runtime.Object {
	return []runtime.Object{&stablev1.CronTab{}, &stablev1.CronTabList{}, &stablev1.CronTabClass{}, &stablev1.CronTabClassList{}}
}

func TestCRDTypesAreRegisteredNotBuiltIn(t *testing.T) {
	for _, obj := range crdTypes() {
		if handled, _ := decodeObject(nil, obj); handled {
			t.Errorf("%T has a built-in decoder", obj)
		}
		if !decoders.RegisteredJSON(obj) {
			t.Errorf("%T: no registered decoder", obj)
		}
	}
}

func TestRegisteredDecodersMatchReferenceOnRandomObjects(t *testing.T) {
	for i, proto := range crdTypes() {
		t.Run(fmt.Sprintf("%T", proto), func(t *testing.T) {
			t.Parallel()
			checkRandom(t, i, proto)
		})
	}
}

func TestRegisteredDecodersMatchReferenceOnMutatedInput(t *testing.T) {
	for i, proto := range crdTypes() {
		t.Run(fmt.Sprintf("%T", proto), func(t *testing.T) {
			t.Parallel()
			checkMutated(t, i, proto)
		})
	}
}

// TestRegisteredDecodersOnHandWrittenDocuments covers what random objects
// rarely produce: nulls, wrong types, duplicate keys, case variants.
func TestRegisteredDecodersOnHandWrittenDocuments(t *testing.T) {
	for _, doc := range []string{
		`{}`, `null`, `[]`, `"x"`,
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"x","labels":{"a":"b"}},"spec":{"cronSpec":"* * * * *","image":"busybox","replicas":2,"env":[{"name":"A","value":"1"}],"windows":{"night":[0,1,2]},"timeout":"1m"},"status":{"phase":"Active","lastScheduleTime":"2024-01-02T03:04:05Z","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2024-01-02T03:04:05Z","reason":"R","message":"m"}]}}`,
		`{"spec":{"replicas":null,"args":null,"labels":null,"selector":null,"timeout":null,"retry":null}}`,
		`{"spec":{"replicas":"2"}}`,
		`{"spec":{"replicas":2147483648}}`,
		`{"spec":{"timeout":"forever"}}`,
		`{"spec":{"windows":{"a":[1,"2"]}}}`,
		`{"spec":{"Image":"case","image":"exact","IMAGE":"upper"}}`,
		`{"spec":{"env":[{"name":"A"},{"name":"A","value":"2"}],"env":[{"value":"3"}]}}`,
		`{"spec":{"retry":{"limit":1,"backoff":"5s"},"retry":{"limit":2}}}`,
		`{"status":{"lastScheduleTime":"yesterday"}}`,
		`{"status":{"active":1.5}}`,
		`{"metadata":{"name":"a","name":1}}`,
		`{"nodes":["a",null,"b"],"parameters":{"k":"v","k":"w"}}`,
		`{"items":[{"metadata":{"name":"a"}},null,{"spec":{"image":1}}],"metadata":{"resourceVersion":"5","continue":"c"}}`,
		`{"items":{}}`,
		`{"spec":{"cronSpec":"\u00e9\ud800x"}}`,
	} {
		for i, proto := range crdTypes() {
			check(t, []byte(doc), newOf(proto))
			prev := newOf(proto)
			apifill.NewFiller(int64(i)).Fill(prev)
			check(t, []byte(doc), prev)
		}
	}
}

// FuzzIntoRegistered is FuzzInto for examples/crd's objects:
//
//	go test ./internal/jsondecode -run '^$' -fuzz FuzzIntoRegistered -fuzztime 5m
func FuzzIntoRegistered(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"spec":{"image":"x","env":[{"name":"a"}]}}`, `{"items":[{"metadata":{"labels":{"a":"b"}}}]}`} {
		f.Add([]byte(s))
	}
	populated := crdTypes()
	for i, obj := range populated {
		apifill.NewFiller(int64(i)).NumElements(0, 2).MaxDepth(6).Fill(obj)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, proto := range crdTypes() {
			check(t, data, proto)
			check(t, data, populated[i])
		}
	})
}
