package lex

import (
	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
)

// Default is the table the generated decoders intern strings in: the
// process-wide table of package intern, so that an informer's cache finds
// the strings of decoded objects interned already. It is bounded, and a
// string that repeats across objects (namespaces, label keys and values,
// images, field managers) is stored once.
var Default = intern.SharedStrings()

// defaultInterner is the Interner of a new lexer: Default, or none when
// interning is switched off (fastpath.Interning).
func defaultInterner() *intern.Strings {
	if !fastpath.Interning.On() {
		return nil
	}
	return Default
}
