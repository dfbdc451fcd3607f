package binaries

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Environment variables the package reads.
const (
	// DirEnv names a folder holding prebuilt programs; it is searched first.
	DirEnv = "KUBECLIENT_CONTROLPLANE_DIR"
	// KubebuilderAssetsEnv is envtest's folder of etcd and kube-apiserver
	// (setup-envtest use -p path); it is searched second.
	KubebuilderAssetsEnv = "KUBEBUILDER_ASSETS"
	// CacheEnv moves the cache root (default ~/.cache/kubeclient).
	CacheEnv = "KUBECLIENT_CACHE"
)

// Paths maps a program name to the executable to run.
type Paths map[string]string

// Find returns an executable for each of names (programs from All), looking
// in DirEnv, then KubebuilderAssetsEnv, then the cache. Programs found in
// none of them are built into the cache (see Build); progress lines go to
// log, which may be nil.
func Find(ctx context.Context, log io.Writer, names ...string) (Paths, error) {
	paths := Paths{}
	var missing []string
	for _, name := range names {
		if !known(name) {
			return nil, fmt.Errorf("binaries: unknown program %q", name)
		}
		if p, ok := lookEnvDirs(name); ok {
			paths[name] = p
			continue
		}
		missing = append(missing, name)
	}
	if len(missing) == 0 {
		return paths, nil
	}
	dir, err := Build(ctx, log, missing...)
	if err != nil {
		return nil, err
	}
	for _, name := range missing {
		paths[name] = filepath.Join(dir, name)
	}
	return paths, nil
}

// lookEnvDirs looks for name in the folders the environment names.
func lookEnvDirs(name string) (string, bool) {
	for _, env := range []string{DirEnv, KubebuilderAssetsEnv} {
		dir := os.Getenv(env)
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if isExecutable(p) {
			return p, true
		}
	}
	return "", false
}

func known(name string) bool {
	for _, n := range All {
		if n == name {
			return true
		}
	}
	return false
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

// CacheRoot is $KUBECLIENT_CACHE, or ~/.cache/kubeclient (the user cache
// folder of the platform) when it is unset.
func CacheRoot() (string, error) {
	if dir := os.Getenv(CacheEnv); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("binaries: no cache folder (set %s): %w", CacheEnv, err)
	}
	return filepath.Join(base, "kubeclient"), nil
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
