// Package protodecodegen writes reflection-free protobuf decoders for API
// types: one decode function per message type reachable from the selected
// root objects, and a type switch that maps each root object to its
// decoder.
//
// Field numbers and wire types come from the protobuf struct tags that
// go-to-protobuf put on the Go types; the functions call the runtime in
// internal/protodecode/wire and decode as the gogo-protobuf Unmarshal
// methods of k8s.io/api do. A message with a field the generator does not
// model (floats, fields of types from packages it did not parse, maps and
// slices of other shapes) is decoded by its own Unmarshal method, which is
// exactly what the reference does for a nested message.
package protodecodegen
