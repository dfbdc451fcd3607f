package jsondecode

import (
	"math/rand"
	"reflect"

	"github.com/kubeclient/client-go/internal/jsondecode/jsontest"
)

// The differential tests' document mutations and object diff, from
// package jsontest.

func mustParseNode(data []byte) *jsontest.Node { return jsontest.MustParse(data) }

func mutate(r *rand.Rand, doc *jsontest.Node) string { return jsontest.Mutate(r, doc) }

func corrupt(r *rand.Rand, data string) string { return jsontest.Corrupt(r, data) }

func firstDiff(path string, a, b reflect.Value) string { return jsontest.FirstDiff(path, a, b) }
