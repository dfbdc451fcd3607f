// Package exec implements client-go credential plugins: an external command,
// configured in a kubeconfig "exec" stanza, that prints an ExecCredential
// (client.authentication.k8s.io v1 or v1beta1) holding a bearer token or a
// client certificate. The Authenticator runs the command when credentials
// are first needed, caches them until they expire or the server answers 401,
// and plugs them into a transport.Config.
//
// Unlike client-go, a request waits for the plugin only as long as its
// context allows: when the context ends the request fails with the
// context's error at once. Concurrent requests share one plugin run, which
// goes on when they give up and whose answer is cached for the next
// request; a plugin that is not interactive is killed after ten minutes
// (see refresh.go).
//
// Layer 1 (configuration) of kubeclient, with the exception the README names:
// its round tripper wraps requests with transport (layer 2) helpers; it never
// imports rest.
package exec
