// Package wire is the hand-written runtime of the generated protobuf
// decoders in internal/protodecode: a Reader over one message's bytes that
// follows the checks of gogo-protobuf's generated Unmarshal methods as
// k8s.io/api carries them, setters for scalar, repeated and map fields, and
// readers for the types whose Unmarshal is written by hand
// (resource.Quantity, metav1.Time, metav1.MicroTime).
//
// Every failure is ErrFallback: the caller then decodes the whole object
// again with the reference Unmarshal, which yields the reference's object
// and error text. The runtime therefore only has to fail whenever the
// reference fails, and decode exactly what it decodes otherwise.
package wire
