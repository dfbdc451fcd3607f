package lex

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"testing"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestIndexMembers checks that Index accepts what encoding/json accepts,
// and that reading an object's members through the index gives the names
// and values encoding/json sees, in order, after any number of rewinds.
func TestIndexMembers(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for range 5000 {
		doc := wiretest.RandomJSON(r, 4)
		if r.Intn(3) == 0 {
			doc = wiretest.Mutate(r, doc)
		}
		data := []byte(doc)
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
