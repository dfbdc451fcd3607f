// Package decodeonce lets a caller of the REST client say that the body of
// one request's response is decoded once, by that caller, and then
// dropped. The REST client may then read the body into a buffer it reuses
// for a later response once the decode is done, instead of a new buffer of
// a page's size (megabytes) that is garbage right after.
//
// Only a caller that owns the rest.Result and never hands it out may mark a
// request: the generated clients' List does (gentype), decoding the result
// with Into and returning only the decoded list. The mark names the request
// itself, so a request made with the same context by anyone else (a
// wrapping round tripper, say) is not marked.
//
// It sits between layer 3 (rest) and layer 4 (gentype), and has no other
// users.
package decodeonce

import "context"

// markKey is the context key of Mark.
type markKey struct{}

// Mark returns ctx marked so that the response to req, a *rest.Request, is
// decoded once and dropped.
func Mark(ctx context.Context, req any) context.Context {
	return context.WithValue(ctx, markKey{}, req)
}

// Marked reports whether ctx marks req with Mark.
func Marked(ctx context.Context, req any) bool {
	return ctx != nil && req != nil && ctx.Value(markKey{}) == req
}
