// Package intern keeps one shared copy of values that repeat across the
// objects of a cache: strings, byte slices (managed-fields sets), maps
// (labels, annotations, resource lists), trees (the managed fields of
// unstructured objects) and, for decoders, whole messages (specs, their
// parts, managed-fields sets from one version of an object to the next).
//
// It sits below tools/cache (which publishes the objects an informer
// caches) and the decoders (which can share as they read).
//
// # The invariant
//
// A value reachable from a published object (stored in an informer's
// cache, handed to a handler, returned by a lister, a client or a watch)
// is never written again by this library. Sharing is decided when an
// object is built, before it is published, in one of two places:
//
//   - a decoder given a DecodeSharing picks, for each part it reads,
//     either a value a table keeps (final: nobody writes into it) or a
//     private one it builds for this object. It never merges into a
//     container it did not create for this object: when a document repeats
//     a key or a field, the merge goes into a private copy;
//   - a Sharer's Copy returns a new object that holds the tables' values
//     where it can and private ones elsewhere. It never writes into the
//     object it is given, whose maps and slices may be another object's.
//
// Tables only ever receive values that are final, and hand them out as
// they are.
//
// # Bounds and privacy
//
// A Table is a fixed number of slots, so its memory is bounded whatever
// the cardinality of the values passed through it: a value that misses
// takes its slot over, and one that is too long is returned as it is.
// The bounds: strings 16,384 slots of at most 512 bytes (8 MiB); managed-
// fields sets 1,024 of at most 16 KiB (16 MiB); resource lists 1,024 of at
// most 8 entries; unstructured managed-fields trees 1,024 of at most 2,048
// nodes; a DecodeSharing's decoded values 4,096 of at most 16 KiB on the
// wire, and its reusable messages by weak pointer only (kept alive by the
// objects holding them, not by the table). Values kept by a table outlive
// the informers that made them until other values take their slots.
//
// Secrets are never shared or interned (see IsSecret), nor is the
// last-applied-configuration annotation of any object, which may carry a
// Secret's data: no process-wide table holds a Secret's values.
//
// Tables are safe for concurrent use without locks; a lookup that loses a
// race returns its own argument, which is always correct, only not shared.
package intern
