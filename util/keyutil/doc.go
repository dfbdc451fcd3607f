// Package keyutil reads, writes and generates PEM-encoded private and
// public keys (RSA and ECDSA).
package keyutil
