// Package azure registers the "azure" auth provider name. The provider
// itself was removed from client-go; using it fails with an error that
// points to its replacement, the kubelogin credential plugin.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package azure
