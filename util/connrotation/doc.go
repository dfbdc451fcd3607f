// Package connrotation provides a Dialer that remembers the connections it
// opened so that they can all be closed at once.
//
// Closing every connection forces clients to reconnect, which is how
// rotated credentials (for example a renewed client certificate) take
// effect on long-lived connections that cannot re-authenticate in place.
//
// Layer 2 (transport) of kubeclient; see the README's Layers section.
package connrotation
