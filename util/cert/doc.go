// Package cert creates, reads and writes X.509 certificates and
// certificate signing requests in PEM form: self-signed CAs and serving
// certificates for tests and bootstrapping, certificate pools from files,
// and inspection of the certificates a TLS server presents.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package cert
