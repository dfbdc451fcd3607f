// Package streamadapt converts between the structurally identical httpstream
// interfaces of k8s.io/apimachinery and k8s.io/streaming, for transport/spdy and
// tools/portforward, whose exported APIs use both.
//
// Layer 2 (transport) of kubeclient; see the README's Layers section.
package streamadapt
