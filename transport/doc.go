// Package transport builds the http.RoundTripper chain that every Kubernetes
// client sends its requests through.
//
// The bottom of the chain is an *http.Transport chosen from a process-wide
// cache keyed by the TLS settings of a Config, so that clients with equal
// settings share connections. It carries the TLS client configuration (CA
// bundle, client certificate, SNI name), HTTP/2 health checks, client
// certificate rotation and CA bundle reloading. On top of it New layers the
// request decorators described by the Config: caller supplied wrappers, debug
// logging, bearer token or basic authentication, the User-Agent header and
// impersonation headers.
//
// Credentials go only where a request started. The decorators that add
// them (bearer token, token file, token source, basic authentication,
// impersonation and authenticating-proxy headers) add them only when the
// request goes to the scheme, host and port the first request of its
// redirect chain went to; a redirect elsewhere, https to http included, is
// followed without them. client-go adds them on every hop. Printing a
// Config or a TLSConfig, with any verb, never shows its secrets.
//
// Every decorator in this package implements
// k8s.io/apimachinery/pkg/util/net.RoundTripperWrapper so that callers can
// walk the chain down to the transport that owns the connections.
package transport
