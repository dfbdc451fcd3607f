package wirecodec

import (
	"bytes"
	stdjson "encoding/json"
	"math/rand"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/internal/jsondecode"
	"github.com/kubeclient/client-go/internal/jsondecode/lex"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestEventObjectDecodedFromFrameIndex decodes random and mutated watch
// frames as rest's JSON watch stream and rest/watch's Decoder do
// (DecodeFrame into a WatchEvent, then Decode of the event's object with
// the generated decoders) and compares each step with the reference. It
// checks that the object's index is taken from the frame only by the
// slice DecodeFrame wrote, not by an equal copy.
func TestEventObjectDecodedFromFrameIndex(t *testing.T) {
	ref, fast := newTestSerializers()
	fast.into = jsondecode.IntoIndexed
	r := rand.New(rand.NewSource(5))
	pod, err := stdjson.Marshal(wiretest.Pod("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	eventObject.Store(nil)
	pods := []string{string(pod), `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","labels":{"x":"y"}},"spec":{"containers":[{"name":"c","image":"i"}]}}`}
	reused := 0
	for i := range 5000 {
		object := pods[r.Intn(len(pods))]
		if r.Intn(2) == 0 {
			object = wiretest.Mutate(r, object)
		}
		frame := []byte(`{"type":"MODIFIED","object":` + object + `}`)
		if r.Intn(4) == 0 {
			frame = []byte(wiretest.Mutate(r, string(frame)))
		}
		var l *lex.Lexer
		if r.Intn(2) == 0 {
			if pl, end, st := lex.IndexPrefix(frame); st == lex.Complete && end == len(frame) {
				l = pl
			} else if pl != nil {
				pl.Release()
			}
		}
		var got metav1.WatchEvent
		_, _, err := fast.DecodeFrame(l, frame, nil, &got)
		if err == ErrMalformedFrame {
			if lex.Validate(frame) == nil {
				t.Fatalf("%q: DecodeFrame called a well-formed frame malformed", frame)
			}
			continue
		}
		var want metav1.WatchEvent
		_, _, wantErr := ref.Decode(frame, nil, &want)
		if !sameError(err, wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: event %+v, %v; reference %+v, %v", frame, got, err, want, wantErr)
		}
		if err != nil || got.Object.Raw == nil {
			continue
		}
		raw := got.Object.Raw
		if i%3 == 0 {
			// An equal copy is validated as any document.
			raw = bytes.Clone(raw)
		}
		remembered := eventObject.Load()
		gotObj, gotGVK, gotErr := fast.Decode(raw, nil, nil)
		wantObj, wantGVK, wantErr := ref.Decode(got.Object.Raw, nil, nil)
		if !sameError(gotErr, wantErr) || !reflect.DeepEqual(gotObj, wantObj) || !reflect.DeepEqual(gotGVK, wantGVK) {
			t.Fatalf("object %q: %#v %v %v; reference %#v %v %v", raw, gotObj, gotGVK, gotErr, wantObj, wantGVK, wantErr)
		}
		if remembered == nil {
			continue
		}
		switch taken := eventObject.Load() == nil; {
		case i%3 == 0 && taken:
			t.Fatalf("object %q: an equal copy took the frame's index", raw)
		case i%3 != 0 && !taken:
			t.Fatalf("object %q: the frame's index was not taken", raw)
		case taken:
			if _, ok := gotObj.(*corev1.Pod); ok {
				reused++
			}
		}
		eventObject.Store(nil)
	}
	if reused < 1000 {
		t.Errorf("only %d objects decoded from their frame's index", reused)
	}
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}
