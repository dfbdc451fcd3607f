// Package keyutil reads, writes and generates PEM-encoded private and
// public keys (RSA and ECDSA).
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package keyutil
