// Package fake provides FakeDiscovery, an in-memory discovery client for
// tests built on the action recorder of the client-go testing package.
package fake
