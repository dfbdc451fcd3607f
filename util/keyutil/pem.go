package keyutil

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
)

// PEM block types of keys.
const (
	// ECPrivateKeyBlockType is the PEM type of a SEC 1 ECDSA private key.
	ECPrivateKeyBlockType = "EC PRIVATE KEY"
	// RSAPrivateKeyBlockType is the PEM type of a PKCS #1 RSA private key.
	RSAPrivateKeyBlockType = "RSA PRIVATE KEY"
	// PrivateKeyBlockType is the PEM type of a PKCS #8 private key.
	PrivateKeyBlockType = "PRIVATE KEY"
	// PublicKeyBlockType is the PEM type of a PKIX public key.
	PublicKeyBlockType = "PUBLIC KEY"
)

// MarshalPrivateKeyToPEM encodes an *rsa.PrivateKey as an "RSA PRIVATE KEY"
// block or an *ecdsa.PrivateKey as an "EC PRIVATE KEY" block. Other key
// types are an error.
func MarshalPrivateKeyToPEM(privateKey crypto.PrivateKey) ([]byte, error) {
	var block pem.Block
	switch key := privateKey.(type) {
	case *rsa.PrivateKey:
		block = pem.Block{Type: RSAPrivateKeyBlockType, Bytes: x509.MarshalPKCS1PrivateKey(key)}
	case *ecdsa.PrivateKey:
		der, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			return nil, err
		}
		block = pem.Block{Type: ECPrivateKeyBlockType, Bytes: der}
	default:
		return nil, fmt.Errorf("private key is not a recognized type: %T", privateKey)
	}
	return pem.EncodeToMemory(&block), nil
}

// ParsePrivateKeyPEM returns the first private key found in keyData, in an
// "EC PRIVATE KEY", "RSA PRIVATE KEY" or "PRIVATE KEY" (PKCS #8) block.
// Other blocks, and blocks that do not parse, are skipped.
func ParsePrivateKeyPEM(keyData []byte) (interface{}, error) {
	for rest := keyData; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if key, ok := parsePrivateKeyBlock(block); ok {
			return key, nil
		}
	}
	return nil, fmt.Errorf("data does not contain a valid RSA or ECDSA private key")
}

func parsePrivateKeyBlock(block *pem.Block) (any, bool) {
	var (
		key any
		err error
	)
	switch block.Type {
	case ECPrivateKeyBlockType:
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case RSAPrivateKeyBlockType:
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case PrivateKeyBlockType:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	default:
		return nil, false
	}
	return key, err == nil
}

// ParsePublicKeysPEM returns every RSA or ECDSA public key found in
// keyData: from public key blocks, from certificates, and from private key
// blocks (whose public half is returned). Keys are *rsa.PublicKey or
// *ecdsa.PublicKey. Blocks holding nothing usable are skipped; it is an
// error if no key at all is found.
func ParsePublicKeysPEM(keyData []byte) ([]interface{}, error) {
	keys := []interface{}{}
	for rest := keyData; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if key := publicKeyFromDER(block.Bytes); key != nil {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("data does not contain any valid RSA or ECDSA public keys")
	}
	return keys, nil
}

// publicKeyFromDER extracts an RSA or ECDSA public key from DER data that
// holds a private key (PKCS #1, SEC 1 or PKCS #8), a PKIX public key or a
// certificate. It returns nil when there is none.
func publicKeyFromDER(der []byte) any {
	if key, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return &key.PublicKey
	}
	if key, err := x509.ParseECPrivateKey(der); err == nil {
		return &key.PublicKey
	}
	var candidate any
	if key, err := x509.ParsePKCS8PrivateKey(der); err == nil {
		if signer, ok := key.(crypto.Signer); ok {
			candidate = signer.Public()
		}
	} else if key, err := x509.ParsePKIXPublicKey(der); err == nil {
		candidate = key
	} else if cert, err := x509.ParseCertificate(der); err == nil {
		candidate = cert.PublicKey
	}
	switch key := candidate.(type) {
	case *rsa.PublicKey, *ecdsa.PublicKey:
		return key
	}
	return nil
}
