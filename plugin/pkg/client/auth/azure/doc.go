// Package azure registers the "azure" auth provider name. The provider
// itself was removed from client-go; using it fails with an error that
// points to its replacement, the kubelogin credential plugin.
//
// Layer 1 (configuration) of kubeclient, with the exception the README names:
// it imports rest (layer 3) to register itself where rest.Config finds auth providers.
package azure
