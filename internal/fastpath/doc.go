// Package fastpath holds the switches of this library's fast paths: the
// parts that make it faster or leaner than client-go without changing
// what a caller sees. Each can be turned off on its own, in the field and
// without a rebuild, with an environment variable read once when the
// process starts (in the spirit of Go's GODEBUG settings), and
// KUBECLIENT_FAST_PATHS=false turns all of them off. Turned off, a path
// behaves as client-go does.
//
// It sits below every layer: the REST client (body pooling), the decoders
// (generated decoders, interning), and the informer cache (sharing) read
// their switch here.
package fastpath
