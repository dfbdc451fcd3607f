// Package flowcontrol throttles clients: token-bucket rate limiters that
// cap the request rate of a client, and a per-key exponential Backoff for
// retrying failing operations. Both take injectable clocks so that tests
// can drive time by hand.
//
// Layer 3 (REST client) of kubeclient; see the README's Layers section.
package flowcontrol
