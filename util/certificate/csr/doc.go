// Package csr requests certificates from the cluster: it files a
// certificates.k8s.io/v1 CertificateSigningRequest for a PEM encoded
// certificate request and waits for a signer to issue the certificate.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package csr
