// Package jsondecodegen writes reflection-free JSON decoders for API types:
// one decode function per struct type reachable from the selected root
// objects, and a type switch that maps each root object to its decoder.
//
// The functions call the runtime in pkg/decoders and decode as
// sigs.k8s.io/json does: fields are matched by their exact JSON name after
// encoding/json's promotion rules for embedded structs, types implementing
// json.Unmarshaler get the raw value bytes, and any field type the
// generator does not model (interface values, text unmarshalers, types
// from packages it did not parse) is decoded by the reference decoder on
// that value's bytes, which is exact.
package jsondecodegen
