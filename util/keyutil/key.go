package keyutil

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kubeclient/client-go/internal/pemfile"
	"github.com/kubeclient/client-go/internal/secretfile"
)

// MakeEllipticPrivateKeyPEM generates a P-256 ECDSA private key and returns
// it as an "EC PRIVATE KEY" PEM block.
func MakeEllipticPrivateKeyPEM() ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: ECPrivateKeyBlockType, Bytes: der}), nil
}

// WriteKey writes PEM key data to keyPath, replacing any existing content
// and creating missing parent directories with mode 0755. The file has
// mode 0600 afterwards even when it existed with a wider mode (client-go
// leaves an existing file's mode alone).
func WriteKey(keyPath string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(keyPath), 0o755); err != nil {
		return err
	}
	return secretfile.Write(keyPath, data)
}

// LoadOrGenerateKeyFile returns the private key stored at keyPath. When
// the file does not exist, a new ECDSA key is generated, written there and
// returned with wasGenerated set. A file that exists but holds no valid
// private key is an error and is left untouched.
func LoadOrGenerateKeyFile(keyPath string) (data []byte, wasGenerated bool, err error) {
	loaded, err := os.ReadFile(keyPath)
	switch {
	case err == nil:
		if _, parseErr := ParsePrivateKeyPEM(loaded); parseErr != nil {
			return nil, false, fmt.Errorf("error loading key from %s: %v", keyPath, parseErr)
		}
		return loaded, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, fmt.Errorf("error loading key from %s: %v", keyPath, err)
	}

	generated, err := MakeEllipticPrivateKeyPEM()
	if err != nil {
		return nil, false, fmt.Errorf("error generating key: %v", err)
	}
	if err := WriteKey(keyPath, generated); err != nil {
		return nil, false, fmt.Errorf("error writing key to %s: %v", keyPath, err)
	}
	return generated, true, nil
}

// PrivateKeyFromFile reads the PEM file at file and returns the first
// private key in it (see ParsePrivateKeyPEM).
func PrivateKeyFromFile(file string) (interface{}, error) {
	return pemfile.Parse(file, "error reading private key file", ParsePrivateKeyPEM)
}

// PublicKeysFromFile reads the PEM file at file and returns the public keys
// in it, taken from public keys, certificates or private keys (see
// ParsePublicKeysPEM).
func PublicKeysFromFile(file string) ([]interface{}, error) {
	return pemfile.Parse(file, "error reading public key file", ParsePublicKeysPEM)
}
