// Package fake provides FakeDiscovery, an in-memory discovery client for
// tests built on the action recorder of the client-go testing package.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package fake
