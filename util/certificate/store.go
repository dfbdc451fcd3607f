package certificate

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"k8s.io/klog/v2"
)

// Store keeps the certificate and key a Manager serves and persists the ones
// it obtains.
type Store interface {
	// Current loads the pair in use. A store holding no pair returns a
	// *NoCertKeyError, which tells the Manager to fall back to its bootstrap
	// pair and request a certificate.
	Current() (*tls.Certificate, error)
	// Update persists a new PEM certificate and key and makes them the pair
	// later Current calls return.
	Update(cert, key []byte) (*tls.Certificate, error)
}

// FileStore is a Store kept in files, which can also say where the current
// pair is on disk.
type FileStore interface {
	Store
	// CurrentPath is the file holding the current certificate and key in PEM.
	CurrentPath() string
}

// NoCertKeyError is returned by a Store that has no certificate and key yet.
type NoCertKeyError string

func (e *NoCertKeyError) Error() string { return string(*e) }

const (
	currentSuffix = "current"
	updatedSuffix = "updated"
	pemExtension  = ".pem"
)

type fileStore struct {
	logger         klog.Logger
	pairNamePrefix string
	certDirectory  string
	keyDirectory   string
	certFile       string
	keyFile        string
}

// NewFileStore returns a Store keeping one PEM file (certificate followed by
// key) per issued pair in certDirectory. The current pair is the first found of
//
//  1. ${certDirectory}/${pairNamePrefix}-current.pem, a symbolic link to the
//     latest pair written by Update;
//  2. certFile and keyFile;
//  3. ${certDirectory}/${pairNamePrefix}.crt and ${keyDirectory}/${pairNamePrefix}.key.
//
// Update writes ${pairNamePrefix}-<timestamp>.pem and atomically points the
// -current.pem link at it.
//
// NewFileStoreWithLogger is the variant for code that logs contextually.
func NewFileStore(
	pairNamePrefix string,
	certDirectory string,
	keyDirectory string,
	certFile string,
	keyFile string) (FileStore, error) {
	return NewFileStoreWithLogger(klog.Background(), pairNamePrefix, certDirectory, keyDirectory, certFile, keyFile)
}

// NewFileStoreWithLogger is NewFileStore logging to logger (with Info).
func NewFileStoreWithLogger(
	logger klog.Logger,
	pairNamePrefix string,
	certDirectory string,
	keyDirectory string,
	certFile string,
	keyFile string) (FileStore, error) {
	s := &fileStore{
		logger:         logger,
		pairNamePrefix: pairNamePrefix,
		certDirectory:  certDirectory,
		keyDirectory:   keyDirectory,
		certFile:       certFile,
		keyFile:        keyFile,
	}
	if err := s.recover(); err != nil {
		return nil, err
	}
	return s, nil
}

// recover finishes an Update interrupted between creating the -updated.pem
// link and renaming it over -current.pem.
func (s *fileStore) recover() error {
	updated := s.filename(updatedSuffix)
	if _, err := os.Lstat(updated); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("inspect %s: %w", updated, err)
	}
	if err := os.Rename(updated, s.CurrentPath()); err != nil {
		return fmt.Errorf("recover interrupted certificate update %s: %w", updated, err)
	}
	s.logger.Info("Recovered interrupted certificate update", "path", s.CurrentPath())
	return nil
}

func (s *fileStore) filename(qualifier string) string {
	return filepath.Join(s.certDirectory, s.pairNamePrefix+"-"+qualifier+pemExtension)
}

func (s *fileStore) CurrentPath() string { return s.filename(currentSuffix) }

func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("check %s: %w", path, err)
}

func (s *fileStore) Current() (*tls.Certificate, error) {
	candidates := [][2]string{{s.CurrentPath(), s.CurrentPath()}}
	if s.certFile != "" && s.keyFile != "" {
		candidates = append(candidates, [2]string{s.certFile, s.keyFile})
	}
	if s.certDirectory != "" && s.keyDirectory != "" {
		candidates = append(candidates, [2]string{
			filepath.Join(s.certDirectory, s.pairNamePrefix+".crt"),
			filepath.Join(s.keyDirectory, s.pairNamePrefix+".key"),
		})
	}
	var tried []string
	for _, c := range candidates {
		certOK, err := exists(c[0])
		if err != nil {
			return nil, err
		}
		keyOK, err := exists(c[1])
		if err != nil {
			return nil, err
		}
		if certOK && keyOK {
			s.logger.Info("Loading cert/key pair", "certFile", c[0], "keyFile", c[1])
			return loadX509KeyPair(c[0], c[1])
		}
		tried = append(tried, fmt.Sprintf("(%q, %q)", c[0], c[1]))
	}
	noKey := NoCertKeyError(fmt.Sprintf("no cert/key files read at %v", tried))
	return nil, &noKey
}

func loadX509KeyPair(certFile, keyFile string) (*tls.Certificate, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("load cert/key pair (%q, %q): %w", certFile, keyFile, err)
	}
	if err := fillLeaf(&cert); err != nil {
		return nil, err
	}
	return &cert, nil
}

func fillLeaf(cert *tls.Certificate) error {
	if cert.Leaf != nil {
		return nil
	}
	if len(cert.Certificate) == 0 {
		return errors.New("no certificate in cert/key pair")
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return fmt.Errorf("parse certificate: %w", err)
	}
	cert.Leaf = leaf
	return nil
}

func (s *fileStore) Update(certData, keyData []byte) (*tls.Certificate, error) {
	pair, err := tls.X509KeyPair(certData, keyData)
	if err != nil {
		return nil, fmt.Errorf("invalid cert/key pair: %w", err)
	}
	if err := fillLeaf(&pair); err != nil {
		return nil, err
	}

	if err := os.MkdirAll(s.certDirectory, 0o755); err != nil {
		return nil, fmt.Errorf("create certificate directory: %w", err)
	}
	name := s.filename(time.Now().Format("2006-01-02-15-04-05"))
	data := append(append([]byte{}, certData...), '\n')
	data = append(data, keyData...)
	// Certificates and keys are PEM; make sure the blocks are separated even
	// if certData lacked a trailing newline.
	if block, _ := pem.Decode(keyData); block == nil {
		return nil, errors.New("invalid key PEM")
	}
	if err := os.WriteFile(name, data, 0o600); err != nil {
		return nil, fmt.Errorf("write %s: %w", name, err)
	}

	updated := s.filename(updatedSuffix)
	if err := os.Remove(updated); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove stale %s: %w", updated, err)
	}
	if err := os.Symlink(name, updated); err != nil {
		return nil, fmt.Errorf("link %s to %s: %w", updated, name, err)
	}
	if err := os.Rename(updated, s.CurrentPath()); err != nil {
		return nil, fmt.Errorf("replace %s: %w", s.CurrentPath(), err)
	}
	s.logger.Info("Stored new cert/key pair", "path", name)
	return &pair, nil
}
