// Package testing lets tests change a client-go feature gate for their own
// duration.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package testing
