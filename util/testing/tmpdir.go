package testing

import (
	"fmt"
	"os"
	"testing"
)

// CloseAndRemove closes each file and removes it from disk, failing t on any
// error.
func CloseAndRemove(t *testing.T, files ...*os.File) {
	t.Helper()
	for _, f := range files {
		if err := closeAndRemove(f); err != nil {
			t.Fatal(err)
		}
	}
}

// closeAndRemove closes f, then removes it: an open file cannot be removed
// on every platform. A nil f is skipped.
func closeAndRemove(f *os.File) error {
	if f == nil {
		return nil
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", f.Name(), err)
	}
	if err := os.Remove(f.Name()); err != nil {
		return fmt.Errorf("remove %s: %w", f.Name(), err)
	}
	return nil
}

// MkTmpdir creates a new temporary directory whose name starts with prefix
// and returns its path; the caller removes it with os.RemoveAll. On error it
// returns "" and the error.
func MkTmpdir(prefix string) (string, error) {
	dir, err := os.MkdirTemp(os.TempDir(), prefix)
	if err != nil {
		return "", err
	}
	return dir, nil
}

// MkTmpdirOrDie is MkTmpdir that panics on error.
func MkTmpdirOrDie(prefix string) string {
	dir, err := MkTmpdir(prefix)
	if err != nil {
		panic(fmt.Sprintf("create temporary directory with prefix %q: %v", prefix, err))
	}
	return dir
}
