// Package decoderstate carries what this library's internal packages set on
// a lexer of package decoders (pkg/decoders) and its public API does not
// show: the string table the decoders intern in and the sharing of values
// with objects decoded before. It is a package of its own so that both
// package decoders, which keeps the state in every Lexer, and the internal
// packages that set it can import it.
package decoderstate

import "github.com/kubeclient/client-go/internal/intern"

// State is a lexer's decoding state.
type State struct {
	// Interner, when set, shares the strings the decoders intern.
	Interner *intern.Strings
	// Share, when set, lets the decoders return values shared with other
	// objects (FieldsV1 sets, label maps, resource lists): only for
	// objects nobody writes into.
	Share *intern.DecodeSharing
}

// Of returns the state of lexer, a *decoders.Lexer. Package decoders sets
// it when it is initialized, before any importer of it runs.
var Of func(lexer any) *State
