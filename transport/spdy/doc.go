// Package spdy builds HTTP round trippers and dialers that upgrade a request
// to a SPDY/3.1 multiplexed connection, the transport kubectl exec, attach and
// port-forward have historically used. The SPDY framing itself lives in
// k8s.io/apimachinery's httpstream/spdy (backed by k8s.io/streaming); this
// package wires it to a rest.Config and performs the protocol negotiation.
//
// Layer 2 (transport) of kubeclient, with one named exception to the layer rule:
// it imports rest (layer 3) because client-go's API takes a *rest.Config here.
package spdy
