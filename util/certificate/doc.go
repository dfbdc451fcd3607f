// Package certificate keeps a component's TLS certificate fresh. A Manager
// holds the current certificate (falling back to a bootstrap pair until the
// first one is issued), and in the background requests a new one through a
// CertificateSigningRequest when 70-90% of the current one's lifetime has
// passed, persisting each new pair in a Store such as the one NewFileStore
// returns.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package certificate
