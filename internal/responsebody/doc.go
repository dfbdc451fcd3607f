// Package responsebody reads the bodies of the API server's responses for
// package rest: whole, for Request.Do and DoRaw (Read), and, for Watch, as
// a stream of watch events. It is the one place where the REST client's
// speed machinery for response bodies lives, behind those constructors, so
// that package rest reads as client-go's concepts (request, retry,
// response, result) and calls it in a line or two.
//
// Whole bodies are read without a growing buffer: presized from their
// declared length or from the size of the last large body of the same
// request (hint.go), else through pooled chunks (chunks.go); a body the
// caller decodes once may be read into a pooled Buffer that is reused
// once decoded (buffer.go).
//
// A watch body is read by NewEvents into Events, the streaming.Decoder
// the watch decodes from: JSON in one pass that frames, validates and
// indexes each event once (json_events.go), protobuf and JSON through
// frame scanners that notice a stream cut inside an event (cut.go), whose
// error Events keeps for rest.WatchCutError. Events and errors are those
// of apimachinery's stream decoder; only the cut is kept in addition.
//
// # Decisions carried by context marks
//
// Two decisions reach the REST client on the context of a request,
// because the public API between their makers and package rest is
// client-go's and has no other room for them (a typed client's List,
// a ListerWatcher's list and watch, Request.Do and Watch all take only a
// context). Package rest reads each mark where it acts on it and hands
// the decision on explicitly:
//
//   - internal/decodeonce.Mark, set by the generated clients' List
//     (gentype) for the one request whose result it decodes with Into and
//     drops: Request.Do reads it and passes it to Read as decodeOnce.
//   - internal/wirecodec.WithCacheDecoding (with WithSharedDecodes), set
//     by an informer on its reflector's list and watch requests when the
//     objects go into its cache unchanged (tools/cache/object_sharing.go):
//     where rest negotiates a decoder for a response (Do's result, a
//     watch's objects) it passes it through wirecodec.ForContext, which
//     returns the decoder that shares what the cache shares. This package
//     never reads a context.
//
// Layer: below package rest, above apimachinery, the JSON scanner
// (jsonscan) and the internal decoders (wirecodec, jsondecode/lex); it
// imports no public package of this module.
package responsebody
