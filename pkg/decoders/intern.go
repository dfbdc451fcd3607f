package decoders

import (
	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
)

// defaultStrings is the table the generated decoders intern strings in: the
// process-wide table of package intern, so that an informer's cache finds
// the strings of decoded objects interned already. It is bounded, and a
// string that repeats across objects (namespaces, label keys and values,
// images, field managers) is stored once.
var defaultStrings = intern.SharedStrings()

// defaultInterner is the string table of a new lexer: defaultStrings, or none when
// interning is switched off (fastpath.Interning).
func defaultInterner() *intern.Strings {
	if !fastpath.Interning.On() {
		return nil
	}
	return defaultStrings
}
