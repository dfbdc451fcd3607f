// Package lex is the runtime of the generated JSON decoders in
// internal/jsondecode: a syntax validator, a lexer over validated input,
// typed value readers, generic composers for pointers, slices and maps, and
// a bounded string intern table.
//
// Every reader follows what sigs.k8s.io/json (the decoder apimachinery's
// JSON serializer uses, a fork of encoding/json) does for the same Go kind:
// null leaves strings, numbers, booleans and structs alone and sets
// pointers, slices and maps to nil; existing pointers, maps and slice
// elements are decoded into; a value that does not fit the Go type makes
// the reader return ErrMismatch without writing, and the caller then runs
// the reference decoder, which produces the reference's own result and
// error.
//
// The lexer only ever sees input that Validate accepted, so it does not
// re-check syntax.
package lex
