package disk

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// responseStore keeps serialized HTTP responses in a directory, one file per
// cache key. A file holds the SHA-256 sum of the response followed by the
// response, so that a torn or corrupted file reads as a miss instead of as a
// wrong answer; files are replaced atomically with a rename.
type responseStore struct {
	dir string
}

// fileFor returns the file of key. Keys are URLs; hashing them keeps file
// names valid and of bounded length.
func (s responseStore) fileFor(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:]))
}

// get returns the response stored under key.
func (s responseStore) get(key string) ([]byte, bool) {
	data, err := os.ReadFile(s.fileFor(key))
	if err != nil || len(data) < sha256.Size {
		return nil, false
	}
	want, response := data[:sha256.Size], data[sha256.Size:]
	got := sha256.Sum256(response)
	if !bytes.Equal(want, got[:]) {
		return nil, false
	}
	return response, true
}

// set stores response under key, replacing what was there.
func (s responseStore) set(key string, response []byte) error {
	sum := sha256.Sum256(response)
	return replaceFile(s.fileFor(key), nil, sum[:], response)
}

// delete forgets key.
func (s responseStore) delete(key string) {
	_ = os.Remove(s.fileFor(key))
}
