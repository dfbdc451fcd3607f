// Package cachesafety guards the invariant of issue 25: a value reachable
// from an object an informer has published (stored in its indexer, handed
// to a handler, returned by a lister) is never written again by this
// library, and one object's decoding never changes another object.
//
// Its tests drive real informers (the typed factory over JSON and
// protobuf, the dynamic informer and the metadata informer, each with and
// without a transform) against a fake kube-apiserver that speaks the wire
// formats kube-apiserver sends, encoded with apimachinery's own
// serializers: paginated LISTs, chunked WATCH streams, a 410 Expired that
// makes the reflector relist, duplicate JSON keys, repeated protobuf
// fields, truncated and corrupted bodies. They check:
//
//   - that readers doing what controllers do (range over labels and
//     annotations, DeepCopy, selector matching, index functions, lister
//     Get and List) may run while the cache fills and changes (run them
//     under -race, as make test does);
//   - that every object handed out stays deep-equal to a snapshot taken
//     when it was first handed out, whatever documents follow it;
//   - that a document with duplicate keys or repeated fields gets the
//     reference decoder's value and changes no other object.
//
// The default run is short enough for make test; -cachesafety.long runs
// the sizes of the issue (2,000 pods, 20,000 events, a long random
// sequence). The package has no non-test code.
package cachesafety
