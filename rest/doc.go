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
// the middle of an event ends with a watch.Error event, not silently
// (watch_cut.go).
package rest
