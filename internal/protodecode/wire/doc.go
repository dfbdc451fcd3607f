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
//
// # Files
//
// One concern each:
//
//   - reader.go: Reader, keys, lengths, skipping, and the counts that size
//     repeated fields before their first element is decoded;
//   - scalar.go, time.go, quantity.go: scalar fields, times, quantities;
//   - repeated.go, maps.go: repeated fields, embedded messages, maps;
//   - slab.go: the per-decode chunks small values are cut from;
//   - typed_chunks.go: the chunks a list decoded for a caller cuts arrays
//     and optional messages from;
//   - recent_strings.go, stream_strings.go: the strings a list's decode,
//     or a watch's decodes, met last, in front of the process-wide table;
//   - map_templates.go: a list's equal resource lists cloned from the
//     first instead of parsed again (each object still owns its map);
//   - sharing.go: values shared between the objects of an informer's
//     cache through an intern.DecodeSharing (sets, maps);
//   - reuse.go: whole messages reused from one decode to the next
//     (ReuseLog, Reused, ReusedRun, ReusedRunParts, ReusedPointer);
//   - items.go: a list's items decoded into allocations an informer keeps.
//
// # Ownership
//
// A Reader, its slab and its ReuseLog belong to the goroutine decoding one
// object or list; the Readers of nested messages share them. What they
// hand out is written only while the object is being decoded: a value
// shared with other objects (from an intern.DecodeSharing, or reused
// through a ReuseLog) is final, and input that would merge into one is
// left to the reference (ErrFallback). Only a Reader given a
// DecodeSharing shares anything, or interns strings; the generated
// decoders use one only for objects going into an informer's cache (see
// protodecode.IntoCache).
package wire
