// Package v1 is the serialized (on-disk) form of a kubeconfig file. Named
// entries are lists of {name, value} pairs here instead of maps; the
// conversion functions translate to and from the internal api package.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package v1
