package cachesafety

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/tools/cache"
)

// Field numbers of k8s.io/api's generated.proto used to write repeated
// fields by hand.
const (
	podMetadataField    = 1  // Pod.metadata, PartialObjectMetadata.metadata
	podSpecField        = 2  // Pod.spec
	metaLabelsField     = 11 // ObjectMeta.labels
	metaAnnotationField = 12 // ObjectMeta.annotations
)

// mapEntry encodes one entry of a protobuf map<string,string> as the
// length-delimited field field.
func mapEntry(field protowire.Number, key, value string) []byte {
	var e []byte
	e = protowire.AppendTag(e, 1, protowire.BytesType)
	e = protowire.AppendString(e, key)
	e = protowire.AppendTag(e, 2, protowire.BytesType)
	e = protowire.AppendString(e, value)
	var b []byte
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendBytes(b, e)
}

// appendToField returns msg with extra appended inside its (first)
// length-delimited field field, as if the encoder had written more of
// that embedded message's fields after the others.
func appendToField(msg []byte, field protowire.Number, extra []byte) ([]byte, error) {
	var out []byte
	done := false
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, msg[n:])
		if m < 0 {
			return nil, protowire.ParseError(m)
		}
		if num == field && typ == protowire.BytesType && !done {
			inner, _ := protowire.ConsumeBytes(msg[n:])
			out = protowire.AppendTag(out, num, typ)
			out = protowire.AppendBytes(out, append(bytes.Clone(inner), extra...))
			done = true
		} else {
			out = append(out, msg[:n+m]...)
		}
		msg = msg[n+m:]
	}
	if !done {
		return nil, fmt.Errorf("no field %d", field)
	}
	return out, nil
}

// duplicateLabels returns body with its labels given twice: JSON, a second
// "labels" key after {"app":"x"}; protobuf, a label entry after another
// field of the same ObjectMeta (map entries split by another field).
func duplicateLabels(wire wireFormat, body []byte, key string) []byte {
	if wire.protobuf {
		extra := append(mapEntry(metaAnnotationField, "split", "by-annotation"), mapEntry(metaLabelsField, key, "1")...)
		out, err := appendToField(body, podMetadataField, extra)
		if err != nil {
			panic(err)
		}
		return out
	}
	return replaceOnce(body, `"labels":{"app":"x"}`, fmt.Sprintf(`"labels":{"app":"x"},"labels":{%q:"1"}`, key))
}

// duplicateMetadata returns body with a second metadata holding one more
// label: JSON, a second "metadata" key; protobuf, the embedded ObjectMeta
// field repeated (which the reference merges).
func duplicateMetadata(wire wireFormat, body []byte, key string) []byte {
	if wire.protobuf {
		var second []byte
		second = protowire.AppendTag(second, podMetadataField, protowire.BytesType)
		return append(bytes.Clone(body), protowire.AppendBytes(second, mapEntry(metaLabelsField, key, "1"))...)
	}
	return append(bytes.TrimSuffix(body, []byte("}")), fmt.Sprintf(`,"metadata":{"labels":{%q:"1"}}}`, key)...)
}

func replaceOnce(b []byte, old, new string) []byte {
	if !bytes.Contains(b, []byte(old)) {
		panic(fmt.Sprintf("%q not in %q", old, b))
	}
	return bytes.Replace(b, []byte(old), []byte(new), 1)
}

// TestDuplicateKeysEndToEnd is the case of issue 25: a list of pods a
// (labels {"app":"x"}), b (labels given twice), c (metadata given twice),
// then watch events d (labels given twice) and e ({"app":"x"} again). a
// and e must keep exactly {app:x}; b, c and d get what apimachinery's
// decoders make of their bytes; no document changes another object.
func TestDuplicateKeysEndToEnd(t *testing.T) {
	for _, v := range []variant{
		{client: typed},
		{client: typed, protobuf: true},
		{client: dynamicClient},
		{client: metadataClient, protobuf: true},
		{client: metadataClient},
	} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			testDuplicateKeys(t, v)
		})
	}
}

func testDuplicateKeys(t *testing.T, v variant) {
	wire := v.wire()
	rv := int64(10)
	last := map[string][]byte{}
	doc := func(name string, craft func([]byte) []byte) (string, []byte) {
		rv++
		p := fixturePod(0, 50, 3, rv, 0, 0)
		p.Name, p.GenerateName = "dup-"+name, ""
		p.Labels = map[string]string{"app": "x"}
		body := wire.body(p)
		if craft != nil {
			body = craft(body)
		}
		// The key is the reference's: a second metadata may rename the
		// object (JSON into unstructured replaces the whole metadata).
		object := wire.object(body)
		ref, err := decodeReference(wire, object, v.client == dynamicClient)
		if err != nil {
			t.Fatalf("apimachinery cannot decode %q: %v", object, err)
		}
		key, err := cache.MetaNamespaceKeyFunc(ref)
		if err != nil {
			t.Fatal(err)
		}
		last[key] = object
		return key, body
	}
	keyA, a := doc("a", nil)
	keyB, b := doc("b", func(body []byte) []byte { return duplicateLabels(wire, body, "evil") })
	keyC, c := doc("c", func(body []byte) []byte { return duplicateMetadata(wire, body, "evil-metadata") })
	first := &epoch{rv: rv, items: [][]byte{wire.item(a), wire.item(b), wire.item(c)}}
	keyD, d := doc("d", func(body []byte) []byte { return duplicateLabels(wire, body, "evil-watch") })
	first.events = append(first.events, frame{rv: rv, bytes: wire.frame(watch.Added, wire.object(d))})
	keyE, e := doc("e", nil)
	first.events = append(first.events, frame{rv: rv, bytes: wire.frame(watch.Added, wire.object(e))})

	srv := newAPIServer(t, wire, 100, []*epoch{first})
	r := newRig(t, v, srv.srv.URL)
	done := make(chan struct{})
	var once sync.Once
	if _, err := r.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if resourceVersion(obj) == rv {
				once.Do(func() { close(done) })
			}
		},
	}); err != nil {
		t.Fatal(err)
	}
	stop := r.run()
	defer stop()
	waitClosed(t, done, time.Minute, func() string { return "the informer never received e" })
	stop()

	for _, key := range []string{keyA, keyE} {
		obj, ok, err := r.informer.GetStore().GetByKey(key)
		if err != nil || !ok {
			t.Fatalf("%s not cached: %v", key, err)
		}
		m, _ := meta.Accessor(obj)
		if got := m.GetLabels(); len(got) != 1 || got["app"] != "x" {
			t.Errorf("%s: labels %v, want exactly map[app:x]: another document's labels reached it", key, got)
		}
	}
	for _, key := range []string{keyA, keyB, keyC, keyD, keyE} {
		got, ok, err := r.informer.GetStore().GetByKey(key)
		if err != nil || !ok {
			t.Fatalf("%s not cached: %v", key, err)
		}
		want, err := decodeReference(wire, last[key], v.client == dynamicClient)
		if err != nil {
			t.Fatalf("%s: apimachinery cannot decode %q: %v", key, last[key], err)
		}
		if diff := difference(v, got.(runtime.Object), want); diff != "" {
			t.Errorf("%s: cached object is not apimachinery's decoding of its document: %s", key, diff)
		}
	}
}
