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
		if f == nil {
			continue
		}
		if err := f.Close(); err != nil {
			t.Fatalf("close %s: %v", f.Name(), err)
		}
		if err := os.Remove(f.Name()); err != nil {
			t.Fatalf("remove %s: %v", f.Name(), err)
		}
	}
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
