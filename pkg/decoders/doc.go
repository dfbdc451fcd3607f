// Package decoders is the runtime of the decoders cmd/codegen generates;
// generated code calls it, programs do not; its API follows the generator.
// It is an addition of this library: client-go has no such package.
//
// It holds a syntax validator, a lexer over validated input, typed value
// readers, generic composers for pointers, slices and maps, and the
// registry through which decoders generated into a user's API package
// (zz_generated.decoders.go, written by cmd/codegen -decoders) are found:
// each such file registers the JSON decoders of its package's objects in
// an init function (RegisterJSON), and this library's REST client decodes
// JSON bodies into those types with them whatever scheme or codec factory
// built the client, as long as the result is what apimachinery's JSON
// serializer would return. The built-in types' decoders
// (internal/jsondecode) use the same runtime.
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
// re-check syntax. Strings are interned in a process-wide bounded table
// (switched off with KUBECLIENT_INTERN=false), and the whole mechanism is
// switched off with KUBECLIENT_GENERATED_DECODERS=false.
//
// There are no protobuf decoders for users' types: kube-apiserver serves
// custom resources as JSON (and CBOR) only.
package decoders
