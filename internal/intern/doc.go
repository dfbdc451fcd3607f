// Package intern keeps one shared copy of values that repeat across the
// objects of a cache: strings, and byte slices whose holders promise not to
// write into them.
//
// It sits below tools/cache (which shares the objects an informer caches)
// and the decoders (which can intern strings as they read them). A Sharer
// rewrites a decoded object, typed or unstructured, to use its tables. A
// Table is
// a fixed number of slots, so its memory is bounded whatever the
// cardinality of the values passed through it: a value that misses takes
// its slot over, and one that is too long is returned as it is. Tables are
// safe for concurrent use without locks; a lookup that loses a race
// returns its own argument, which is always correct, only not shared.
package intern
