package disk

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kubeclient/client-go/discovery/cached/internal/apiservertest"
)

// cacheFileModes returns the permission bits of every regular file under dir.
func cacheFileModes(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	modes := map[string]fs.FileMode{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		modes[path] = info.Mode().Perm()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return modes
}

// TestCacheFilesHaveNoGroupOrOtherWrite checks the modes of the discovery
// and HTTP cache files: 0640 for new files, and for files that existed with
// loose modes (0666, as an older client or a umask of 0 may leave them)
// once they are written again. client-go writes 0660.
func TestCacheFilesHaveNoGroupOrOtherWrite(t *testing.T) {
	old := syscall.Umask(0) // the mode must not depend on the umask
	defer syscall.Umask(old)

	tests := []struct {
		name string
		// existing makes the cache files exist, with mode 0666 and expired,
		// before the client under test writes them.
		existing bool
	}{
		{name: "new files"},
		{name: "existing files with loose modes", existing: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := apiservertest.New(t, true, apiservertest.CoreAndApps())
			discoveryDir, httpDir := t.TempDir(), t.TempDir()
			run := func() {
				t.Helper()
				c, err := NewCachedDiscoveryClientForConfig(s.Config(), discoveryDir, httpDir, time.Hour)
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := c.ServerGroupsAndResources(); err != nil {
					t.Fatal(err)
				}
				if _, err := c.OpenAPIV3().Paths(); err != nil {
					t.Fatal(err)
				}
			}
			if tc.existing {
				run()
				for _, dir := range []string{discoveryDir, httpDir} {
					for path := range cacheFileModes(t, dir) {
						if err := os.Chmod(path, 0o666); err != nil {
							t.Fatal(err)
						}
					}
					ageFiles(t, dir, 2*time.Hour)
				}
				// The OpenAPI listing is rewritten only when it changes.
				s.SetGroups(append(apiservertest.CoreAndApps(), apiservertest.CronTabCRD()))
			}
			run()
			for _, dir := range []string{discoveryDir, httpDir} {
				modes := cacheFileModes(t, dir)
				rewritten := 0
				for path, mode := range modes {
					info, err := os.Stat(path)
					if err != nil {
						t.Fatal(err)
					}
					if time.Since(info.ModTime()) > time.Hour {
						continue // not written by the second run
					}
					rewritten++
					if mode != 0o640 {
						t.Errorf("%s: mode %v, want -rw-r----- (no group or other write)", path, mode)
					}
				}
				// Every expired discovery file is written again; of the HTTP
				// cache, at least the changed OpenAPI listing.
				if rewritten == 0 || dir == discoveryDir && rewritten != len(modes) {
					t.Errorf("%s: %d of %d files written by the client under test", dir, rewritten, len(modes))
				}
			}
		})
	}
}
