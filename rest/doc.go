// Package rest is the HTTP layer every Kubernetes client is built on.
//
// A Config describes how to reach an API server (address, credentials, TLS,
// throttling, content negotiation). RESTClientFor turns a Config into a
// RESTClient, which hands out Request builders. A Request accumulates a verb,
// a path (namespace, resource, name, subresource), query parameters, headers
// and a body; executing it (Do, DoRaw, Stream, Watch) throttles through the
// client's rate limiter, retries on Retry-After responses, reports to
// tools/metrics and turns every non-2xx response into a
// *k8s.io/apimachinery/pkg/api/errors.StatusError.
//
// Where this package differs from client-go on purpose: a Config prints
// without secrets in every form (config_print.go); request and response
// bodies are logged without secrets (body_log.go); a watch stream cut in
// the middle of an event closes the result channel as client-go's does,
// and WatchCutError tells why (watch_cut.go).
//
// How response bodies are read, whole for Do and DoRaw or as a stream of
// watch events, is internal/responsebody's work: package rest calls it
// where it reads a response (response.go, request_exec.go).
//
// Two decisions reach this package on the context of a request, because
// client-go's signatures have no other room for them; each is read where
// this package acts on it, and handed on explicitly:
//
//   - The generated clients' List marks the context with
//     internal/decodeonce.Mark for the one request whose Result it decodes
//     with Into and drops (gentype). Do reads the mark and lets
//     internal/responsebody read a successful body into a reused buffer,
//     which Result.Into returns once decoded.
//   - An informer marks the context of its list and watch requests with
//     internal/wirecodec.WithCacheDecoding when their objects go into its
//     cache unchanged (tools/cache/object_sharing.go). Do and Watch pass
//     the decoder they negotiated through wirecodec.ForContext, which
//     returns the decoder that shares values with the cached objects.
package rest
