package decoders

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"slices"
	"testing"

	"github.com/kubeclient/client-go/internal/jsonscan"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestIndexMembers checks that Index accepts what encoding/json accepts,
// and that reading an object's members through the index gives the names
// and values encoding/json sees, in order, after any number of rewinds.
func TestIndexMembers(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for range 5000 {
		data := []byte(randomDocument(r, 3))
		l, err := Index(data)
		if got, want := err == nil, json.Valid(data); got != want {
			t.Fatalf("Index(%q) accepted %v, encoding/json %v", data, got, want)
		}
		if err != nil {
			continue
		}
		for range 2 {
			checkMembers(t, l, data)
		}
		l.Release()
	}
}

func checkMembers(t *testing.T, l *Lexer, data []byte) {
	t.Helper()
	l.Rewind()
	if l.Next() != '{' {
		return
	}
	var want []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token() // '{'
	for dec.More() {
		var name, value json.RawMessage
		tok, _ := dec.Token()
		name, _ = json.Marshal(tok)
		if err := dec.Decode(&value); err != nil {
			t.Fatal(err)
		}
		want = append(want, name, value)
	}
	l.OpenObject()
	for i := 0; ; i += 2 {
		rawName, plain, ok := l.Member()
		if !ok {
			if i != len(want) {
				t.Fatalf("%q: %d members read, encoding/json has %d", data, i/2, len(want)/2)
			}
			return
		}
		var name string
		if err := json.Unmarshal(append(append([]byte{'"'}, rawName...), '"'), &name); err != nil {
			t.Fatal(err)
		}
		var wantName string
		json.Unmarshal(want[i], &wantName)
		if name != wantName {
			t.Fatalf("%q: member %d named %q, encoding/json %q", data, i/2, name, wantName)
		}
		if plain != ASCIIPlain(rawName) || plain && string(rawName) != name {
			t.Fatalf("%q: member %q plain %v", data, rawName, plain)
		}
		value := l.Raw()
		if compact(value) != compact(want[i+1]) {
			t.Fatalf("%q: member %q value %s, encoding/json %s", data, name, value, want[i+1])
		}
	}
}

// compact returns the JSON value v without insignificant whitespace.
func compact(v []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return "invalid: " + string(v)
	}
	return b.String()
}

// TestIndexPrefix checks IndexPrefix against encoding/json's stream
// decoder on random documents, mutations of them and their prefixes, each
// followed by more input: the same status (Invalid where the decoder
// reports a syntax error), the same end, and the same index as Index
// builds for the value alone.
func TestIndexPrefix(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 5000 {
		data := []byte(randomDocument(r, 2) + " " + wiretest.RandomJSON(r, 1))
		for _, cut := range []int{len(data), r.Intn(len(data) + 1)} {
			prefix := data[:cut]
			l, end, st := IndexPrefix(prefix)
			dec := json.NewDecoder(bytes.NewReader(prefix))
			var raw json.RawMessage
			err := dec.Decode(&raw)
			switch {
			case err == nil:
				if st != Complete || int64(end) != dec.InputOffset() {
					t.Fatalf("IndexPrefix(%q) = %d, %v; encoding/json decoded %d bytes", prefix, end, st, dec.InputOffset())
				}
				whole, err := Index(prefix[:end])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(l.spans, whole.spans) || !bytes.Equal(l.Bytes(), whole.Bytes()) {
					t.Fatalf("IndexPrefix(%q): index differs from Index's", prefix)
				}
				whole.Release()
				l.Release()
			case referenceMalformed(prefix):
				if st != Invalid || l != nil {
					t.Fatalf("IndexPrefix(%q) = %v, encoding/json: %v", prefix, st, err)
				}
			default:
				if st != Short || l != nil {
					t.Fatalf("IndexPrefix(%q) = %v, encoding/json: %v", prefix, st, err)
				}
			}
		}
	}
}

// TestExtract checks that the lexer Extract makes over a copy of a value
// holds the index Index builds for the copy, for every member value of
// random objects.
func TestExtract(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for range 3000 {
		data := []byte(wiretest.RandomJSON(r, 5))
		l, err := Index(data)
		if err != nil {
			t.Fatal(err)
		}
		if l.Next() != '{' {
			l.Release()
			continue
		}
		l.OpenObject()
		for {
			_, _, ok := l.Member()
			if !ok {
				break
			}
			value := l.Raw()
			end := l.Offset()
			cp := bytes.Clone(value)
			sub := l.Extract(end-len(value), end, cp)
			want, err := Index(cp)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sub.spans, want.spans) || !bytes.Equal(sub.Bytes(), cp) {
				t.Fatalf("Extract of %q: index %v, Index's %v", value, sub.spans, want.spans)
			}
			sub.Release()
			want.Release()
		}
		l.Release()
	}
}

// randomDocument returns a random JSON document, one in mutateOneIn of
// them mutated, possibly into invalid JSON.
func randomDocument(r *rand.Rand, mutateOneIn int) string {
	doc := wiretest.RandomJSON(r, 4)
	if r.Intn(mutateOneIn) == 0 {
		doc = wiretest.Mutate(r, doc)
	}
	return doc
}

// TestStatusIsScanners checks that IndexPrefix's outcomes convert from
// the scanner's one for one.
func TestStatusIsScanners(t *testing.T) {
	for _, tt := range []struct {
		scanner jsonscan.Status
		want    Status
	}{
		{jsonscan.Complete, Complete},
		{jsonscan.Short, Short},
		{jsonscan.Invalid, Invalid},
	} {
		if got := Status(tt.scanner); got != tt.want {
			t.Errorf("Status(jsonscan status %d) = %d, want %d", tt.scanner, got, tt.want)
		}
	}
}
