// Package framework provides FakeControllerSource, an in-memory
// ListerWatcher with resource versions, for testing informers and
// controllers without an API server.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package framework
