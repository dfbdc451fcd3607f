// Package lex is this library's internal view of the generated decoders'
// runtime, package decoders (pkg/decoders): the names its internal
// packages (the REST client's serializers, the watch decoder, the
// unstructured decoder) read JSON with, and access to what the public API
// of package decoders does not show: the string table a lexer interns in
// and the sharing of values with objects decoded before. The lexer's code
// is in package decoders only; this package forwards to it.
package lex

import (
	"github.com/kubeclient/client-go/internal/decoderstate"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/pkg/decoders"
)

// Lexer is decoders.Lexer.
type Lexer = decoders.Lexer

// Status is decoders.Status, the outcome of IndexPrefix.
type Status = decoders.Status

// The outcomes of IndexPrefix.
const (
	Complete = decoders.Complete
	Short    = decoders.Short
	Invalid  = decoders.Invalid
)

// ErrSyntax and ErrMismatch are package decoders' errors.
var (
	ErrSyntax   = decoders.ErrSyntax
	ErrMismatch = decoders.ErrMismatch
)

// Index is decoders.Index.
func Index(data []byte) (*Lexer, error) { return decoders.Index(data) }

// Unindexed is decoders.Unindexed.
func Unindexed(data []byte) (*Lexer, error) { return decoders.Unindexed(data) }

// IndexPrefix is decoders.IndexPrefix.
func IndexPrefix(data []byte) (*Lexer, int, Status) { return decoders.IndexPrefix(data) }

// ValidatePrefix is decoders.ValidatePrefix.
func ValidatePrefix(data []byte) (int, Status) { return decoders.ValidatePrefix(data) }

// Validate is decoders.Validate.
func Validate(data []byte) error { return decoders.Validate(data) }

// Malformed is decoders.Malformed.
func Malformed(data []byte) bool { return decoders.Malformed(data) }

// StringEnd is decoders.StringEnd.
func StringEnd(data []byte, i int) (int, bool) { return decoders.StringEnd(data, i) }

// ASCIIPlain is decoders.ASCIIPlain.
func ASCIIPlain(b []byte) bool { return decoders.ASCIIPlain(b) }

// ASCIIEqualFold is decoders.ASCIIEqualFold.
func ASCIIEqualFold(name []byte, lower string) bool { return decoders.ASCIIEqualFold(name, lower) }

// AppendUnquoted is decoders.AppendUnquoted.
func AppendUnquoted(dst, raw []byte) []byte { return decoders.AppendUnquoted(dst, raw) }

// Share returns the decode sharing of l, nil when it shares nothing.
func Share(l *Lexer) *intern.DecodeSharing { return decoderstate.Of(l).Share }

// SetShare lets the decoders reading l share values with the objects
// decoded before through s (nil: share nothing). Only for objects nobody
// writes into.
func SetShare(l *Lexer, s *intern.DecodeSharing) { decoderstate.Of(l).Share = s }

// Private makes l intern and share nothing, for values that must not
// enter process-wide tables (a Secret's).
func Private(l *Lexer) { *decoderstate.Of(l) = decoderstate.State{} }
