package decoders

import (
	"errors"

	"github.com/kubeclient/client-go/internal/jsonscan"
)

// ErrSyntax reports input that is not a single well-formed JSON value.
var ErrSyntax = errors.New("jsondecode: invalid JSON")

// Validate reports whether data is exactly one JSON value surrounded by
// optional whitespace, accepting what encoding/json's scanner accepts and
// nothing more.
func Validate(data []byte) error {
	return validate(data, nil)
}

// Malformed reports whether data, the beginning of a JSON value (leading
// whitespace allowed), already has a syntax error, or nests deeper than
// encoding/json allows, before its first value ends; input that is merely
// cut short, or one complete value followed by anything, is not malformed.
func Malformed(data []byte) bool {
	return jsonscan.Malformed(data)
}

// validate is Validate recording the containers into spans when not nil.
func validate(data []byte, spans *[]span) error {
	if !jsonscan.Check(data, spans) {
		return ErrSyntax
	}
	return nil
}

// span is one object or array of a validated document, as the scanner
// records it: the lexer skips and sizes containers through these records.
type span = jsonscan.Span

// maxIndexed is the longest document whose containers fit a span.
const maxIndexed = jsonscan.MaxIndexed
