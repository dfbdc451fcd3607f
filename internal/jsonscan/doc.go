// Package jsonscan is this library's one JSON scanner: every reader of
// JSON text in the library (the watch stream's framing, the generated
// decoders' lexer and validator, the unstructured decoder) finds the ends
// of strings, numbers, objects and arrays, checks syntax and unquotes
// strings with the functions here.
//
// It has three parts:
//
//   - Scanner follows the nesting of objects, arrays and strings in text
//     that arrives in pieces, without checking syntax, to find where each
//     top-level object or array ends (a watch stream's frames).
//   - Check, CheckPrefix and Malformed check syntax as encoding/json's
//     scanner does, recording the document's containers (Span) when
//     asked, so that a reader of the checked document can skip or size a
//     container without scanning it again. String and Number check one
//     token for a decoder that parses as it reads.
//   - Readers of checked text: SkipString, SkipValue and AppendUnquoted,
//     which assume the syntax is well formed; and IsSpace, SkipSpace and
//     ASCIIPlain, which are safe on any bytes.
//
// The string loops look at eight bytes at a time (words.go).
package jsonscan
