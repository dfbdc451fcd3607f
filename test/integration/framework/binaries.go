package framework

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// BinariesDirEnv names the environment variable that points at a folder
// holding prebuilt etcd and kube-apiserver binaries. When it is unset the
// harness runs controlplane/build.sh, which builds and caches them.
const BinariesDirEnv = "KUBECLIENT_CONTROLPLANE_DIR"

// BinariesDir returns the folder holding the etcd and kube-apiserver
// binaries, building them first when needed. Concurrent callers (several
// test packages started by one `go test ./...`) are serialised by a file
// lock so that only one build runs.
func BinariesDir() (string, error) {
	if dir := os.Getenv(BinariesDirEnv); dir != "" {
		if err := checkBinaries(dir); err != nil {
			return "", fmt.Errorf("%s=%s: %w", BinariesDirEnv, dir, err)
		}
		return dir, nil
	}
	script, err := buildScript()
	if err != nil {
		return "", err
	}
	unlock, err := lockFile(filepath.Join(os.TempDir(), "kubeclient-controlplane-build.lock"))
	if err != nil {
		return "", err
	}
	defer unlock()

	var stdout, stderr bytes.Buffer
	cmd := exec.Command("bash", script)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("running %s: %w\n%s", script, err, tail(stderr.Bytes(), 40))
	}
	dir := strings.TrimSpace(lastLine(stdout.String()))
	if err := checkBinaries(dir); err != nil {
		return "", fmt.Errorf("%s printed %q: %w", script, dir, err)
	}
	return dir, nil
}

func checkBinaries(dir string) error {
	for _, name := range []string{"etcd", "kube-apiserver"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if info.IsDir() || info.Mode()&0o111 == 0 {
			return fmt.Errorf("%s is not an executable file", filepath.Join(dir, name))
		}
	}
	return nil
}

// buildScript finds controlplane/build.sh next to this package, first
// through the source path recorded in the binary, then by walking up from the
// working directory (go test runs in the package folder).
func buildScript() (string, error) {
	var candidates []string
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		candidates = append(candidates, filepath.Join(filepath.Dir(file), "..", "controlplane", "build.sh"))
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			candidates = append(candidates,
				filepath.Join(dir, "controlplane", "build.sh"),
				filepath.Join(dir, "test", "integration", "controlplane", "build.sh"))
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return filepath.Clean(c), nil
		}
	}
	return "", errors.New("cannot find test/integration/controlplane/build.sh; set " + BinariesDirEnv + " to a folder holding etcd and kube-apiserver")
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
