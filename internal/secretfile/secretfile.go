// Package secretfile writes files that hold credentials or private keys:
// kubeconfigs and PEM keys. It sits below every package that writes such a
// file (tools/clientcmd, util/keyutil, util/cert).
//
// client-go creates these files with mode 0600 but leaves the mode of an
// existing file alone, so a kubeconfig or key file that was once 0644
// stays world-readable after a token or key is written into it. Write
// makes the file 0600 in both cases, before any of the new content is in
// it.
package secretfile

import (
	"os"
)

// Mode is the permission of a file written by Write: read and write for
// the owner only.
const Mode os.FileMode = 0o600

// Write replaces the content of the file at path with data and leaves the
// file with mode Mode, whether it existed or not.
//
// The mode of an existing file is narrowed before the file is truncated:
// when that fails (the caller does not own the file), Write returns the
// error and the old content is left as it was.
func Write(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, Mode)
	if err != nil {
		return err
	}
	if err := f.Chmod(Mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
