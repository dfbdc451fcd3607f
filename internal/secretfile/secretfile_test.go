package secretfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWrite(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are POSIX")
	}
	tests := []struct {
		name     string
		existing []byte // nil: no file before the write
		mode     os.FileMode
	}{
		{name: "new file"},
		{name: "existing world-readable file, longer content", existing: []byte("old content that is longer than the new"), mode: 0o644},
		{name: "existing group-writable file", existing: []byte("x"), mode: 0o664},
		{name: "existing owner-only file", existing: []byte("x"), mode: 0o600},
		{name: "existing owner read-write-execute file", existing: []byte("x"), mode: 0o700},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "secret")
			if tt.existing != nil {
				if err := os.WriteFile(path, tt.existing, tt.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tt.mode); err != nil { // past the umask
					t.Fatal(err)
				}
			}
			if err := Write(path, []byte("token")); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != Mode {
				t.Errorf("mode = %v, want %v", got, Mode)
			}
			if got, _ := os.ReadFile(path); string(got) != "token" {
				t.Errorf("content = %q, want %q", got, "token")
			}
		})
	}
}

func TestWriteMissingFolder(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "missing", "secret"), nil); err == nil {
		t.Fatal("want an error for a file in a missing folder")
	}
}
