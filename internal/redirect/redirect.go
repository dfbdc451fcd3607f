// Package redirect tells the round trippers that add credentials whether a
// request is a redirect hop that left the origin of the request it came
// from. It is internal to the module: transport's bearer, basic,
// impersonation, auth-proxy and token-source round trippers and the exec
// and OIDC auth plugins use it.
//
// An http.Client follows a redirect by sending a new request through the
// same RoundTripper, with Response set to the redirect response (whose
// Request is the previous hop). The client itself drops the Authorization
// header it was given when the redirect leads to another host, but round
// trippers that add credentials would add them again on every hop. They ask
// LeftOrigin first and send a hop that left the origin without credentials:
// the credentials of a server are for that server only. client-go adds them
// on every hop, so a server that redirects elsewhere (another host, another
// port, or from https to http) receives them, in clear text after a
// downgrade.
//
// Layer: a leaf; it imports only the standard library.
package redirect

import (
	"net/http"
	"net/url"
	"strings"
)

// LeftOrigin reports whether req is a redirect hop whose scheme, host or
// port differ from those of the first request of its redirect chain.
// Default ports count as given (https://h is https://h:443), and scheme and
// host compare without regard to case.
func LeftOrigin(req *http.Request) bool {
	first := req
	for first.Response != nil && first.Response.Request != nil {
		first = first.Response.Request
	}
	if first == req || first.URL == nil || req.URL == nil {
		return false
	}
	return origin(first.URL) != origin(req.URL)
}

// origin renders scheme://host:port of u in a canonical form.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https", "wss":
			port = "443"
		case "http", "ws":
			port = "80"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}
