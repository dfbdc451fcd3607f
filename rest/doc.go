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
package rest
