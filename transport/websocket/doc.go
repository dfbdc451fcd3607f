// Package websocket provides an http.RoundTripper that upgrades a request to a
// WebSocket connection (gorilla/websocket) with the TLS and proxy settings of
// a rest.Config, and Negotiate, which offers subprotocols such as
// v5.channel.k8s.io and hands back the upgraded connection. A server that
// refuses the upgrade has its metav1.Status body returned as a StatusError.
//
// Layer 2 (transport) of kubeclient, with one named exception to the layer rule:
// it imports rest (layer 3) because client-go's API takes a *rest.Config here.
package websocket
