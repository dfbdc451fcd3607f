// Package homedir finds the current user's home directory the way
// kubeconfig loading expects it, including Windows' several candidate
// environment variables.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package homedir
