// Package wirecodec holds the fast paths of the client's JSON wire
// decoding: a syntax checker, the apiVersion/kind peek, the WatchEvent
// envelope and a JSONSerializer that puts them, with the generated object
// decoders of internal/jsondecode, in front of apimachinery's JSON
// serializer. It sits below rest and the generated clientsets: every fast
// path gives up on input it does not handle in the common way and lets the
// reference serializer decode, so objects and errors are the reference's.
package wirecodec
