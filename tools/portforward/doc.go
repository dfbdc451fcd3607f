// Package portforward forwards local TCP ports to ports of a pod, like
// "kubectl port-forward": each accepted local connection becomes a pair of
// streams (data and error) on one upgraded connection speaking
// portforward.k8s.io. The upgrade is SPDY (transport/spdy) or SPDY tunneled
// through a WebSocket (NewSPDYOverWebsocketDialer), and NewFallbackDialer
// tries one and then the other.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package portforward
