package decoders

import (
	"encoding/json"
	"os"
	"testing"
)

func podFixture(b *testing.B) []byte {
	data, err := os.ReadFile("../../internal/jsondecode/testdata/pod.json")
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkValidate(b *testing.B) {
	data := podFixture(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := Validate(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodingJSONValid(b *testing.B) {
	data := podFixture(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if !json.Valid(data) {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkSkip(b *testing.B) {
	data := podFixture(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		newLexer(data, nil).Skip()
	}
}
