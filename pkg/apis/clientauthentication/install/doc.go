// Package install registers every version of the
// client.authentication.k8s.io API group with a scheme.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package install
