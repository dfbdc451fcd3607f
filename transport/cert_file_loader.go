package transport

import (
	"crypto/tls"
	"sync"
	"time"
)

// certFileMaxAge bounds how long a client certificate read from disk is
// reused before the files are read again. It keeps a burst of new connections
// from re-reading the files for each handshake.
const certFileMaxAge = time.Second

// certFileLoader loads a client key pair from a certificate and a key file
// and caches the result, including a failure, for certFileMaxAge.
type certFileLoader struct {
	certFile, keyFile string
	now               func() time.Time

	mu       sync.Mutex // guards the fields below
	cert     *tls.Certificate
	err      error
	loadedAt time.Time
}

// newCertFileLoader reads the key pair right away and returns a function that
// yields the cached pair, re-reading the files when the cache is stale.
func newCertFileLoader(certFile, keyFile string) func() (*tls.Certificate, error) {
	l := &certFileLoader{certFile: certFile, keyFile: keyFile, now: time.Now}
	l.mu.Lock()
	l.reloadLocked()
	l.mu.Unlock()
	return l.load
}

func (l *certFileLoader) load() (*tls.Certificate, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.now().Sub(l.loadedAt) > certFileMaxAge {
		l.reloadLocked()
	}
	return l.cert, l.err
}

func (l *certFileLoader) reloadLocked() {
	cert, err := tls.LoadX509KeyPair(l.certFile, l.keyFile)
	l.cert, l.err, l.loadedAt = &cert, err, l.now()
}
