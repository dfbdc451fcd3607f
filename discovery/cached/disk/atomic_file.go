package disk

import (
	"os"
	"path/filepath"
)

// File modes of the cache. Neither the group nor others may write: a
// process that can rewrite a discovery or OpenAPI file can change how a
// client maps kinds to resources. client-go writes 0660 files; this package
// writes 0640 ones (see README, differences from client-go).
const (
	cacheDirPerm  os.FileMode = 0o750
	cacheFilePerm os.FileMode = 0o640
)

// replaceFile writes the concatenation of parts to path atomically:
// concurrent readers, in this process or another, see the old content or
// the new, never a mix. The new file always has mode cacheFilePerm, whatever
// the mode of the file it replaces and whatever the umask, because it is a
// new file renamed over the old one and its mode is set explicitly. Missing
// parent directories are created with cacheDirPerm.
//
// commit, if not nil, runs the rename: callers that track which files they
// wrote pass a function that renames under their lock.
func replaceFile(path string, commit func(tmp, path string) error, parts ...[]byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, cacheDirPerm); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	for _, p := range parts {
		if _, err := tmp.Write(p); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Chmod(cacheFilePerm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if commit == nil {
		commit = os.Rename
	}
	return commit(tmp.Name(), path)
}
