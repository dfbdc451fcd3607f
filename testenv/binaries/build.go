package binaries

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// stamp is part of the cache key; change it when the way the programs are
// built changes (flags, version stamping) so that old builds are not reused.
const stamp = "v2"

// CacheDir returns the folder that holds (or will hold) the programs built
// from the embedded module for this platform.
func CacheDir() (string, error) {
	root, err := CacheRoot()
	if err != nil {
		return "", err
	}
	v, err := EmbeddedVersions()
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("kube-apiserver-%s_etcd-%s_%s-%s_stamp-%s", v.Kubernetes, v.Etcd, runtime.GOOS, runtime.GOARCH, stamp)
	return filepath.Join(root, "controlplane", key), nil
}

// Build makes sure the cache holds names, building the missing ones with
// one `go build` of the embedded module, and returns the cache folder.
// Concurrent callers, in this process or others, are serialised by a lock
// file next to the folder, so a program is built once. Progress lines go to
// log (nil discards them). A cold build of all three programs takes
// 20 to 40 CPU-minutes; later calls return at once.
func Build(ctx context.Context, log io.Writer, names ...string) (string, error) {
	if log == nil {
		log = io.Discard
	}
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	unlock, err := lockFile(dir + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()

	var missing []string
	for _, name := range names {
		if !known(name) {
			return "", fmt.Errorf("binaries: unknown program %q", name)
		}
		if !isExecutable(filepath.Join(dir, name)) {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return dir, nil
	}
	started := time.Now()
	fmt.Fprintf(log, "testenv: building %s from the Go module proxy into %s (once per version; takes minutes)\n",
		strings.Join(missing, ", "), dir)
	if err := goBuild(ctx, dir, missing); err != nil {
		return "", err
	}
	fmt.Fprintf(log, "testenv: built %s in %v\n", strings.Join(missing, ", "), time.Since(started).Round(time.Second))
	return dir, nil
}

// goBuild writes the embedded module to a temporary folder and builds
// names into a staging folder inside out, then moves each program into out,
// so that out never holds a half-written program.
func goBuild(ctx context.Context, out string, names []string) error {
	v, err := EmbeddedVersions()
	if err != nil {
		return err
	}
	src, err := os.MkdirTemp("", "testenv-controlplane-src-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(src)
	if err := writeModule(src); err != nil {
		return fmt.Errorf("binaries: writing the build module: %w", err)
	}
	staging, err := os.MkdirTemp(out, ".staging-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)

	goTool, err := findGo()
	if err != nil {
		return err
	}
	args := []string{"build", "-trimpath", "-ldflags=" + versionLDFlags(v.Kubernetes), "-o", staging + string(filepath.Separator)}
	for _, name := range names {
		args = append(args, "./cmd/"+name)
	}
	cmd := exec.CommandContext(ctx, goTool, args...)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=0")
	var output bytes.Buffer
	cmd.Stdout = &output
	cmd.Stderr = &output
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("binaries: go build %s: %w\n%s", strings.Join(names, " "), err, lastLines(output.String(), 40))
	}
	for _, name := range names {
		exe := name
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		if err := os.Rename(filepath.Join(staging, exe), filepath.Join(out, name)); err != nil {
			return err
		}
	}
	return nil
}

// versionLDFlags stamps the release into the programs, as an official build
// does (kube-apiserver's /version, kube-controller-manager --version). -s
// drops the symbol table to keep the cache small.
func versionLDFlags(release string) string {
	version := strings.TrimPrefix(release, "v")
	major, rest, _ := strings.Cut(version, ".")
	minor, _, _ := strings.Cut(rest, ".")
	flags := []string{"-s"}
	for _, pkg := range []string{"k8s.io/component-base/version", "k8s.io/client-go/pkg/version"} {
		flags = append(flags,
			"-X", pkg+".gitVersion="+release,
			"-X", pkg+".gitMajor="+major,
			"-X", pkg+".gitMinor="+minor,
			"-X", pkg+".gitTreeState=clean",
			"-X", pkg+".buildDate=1970-01-01T00:00:00Z")
	}
	return strings.Join(flags, " ")
}

// findGo returns the go command: the one on PATH, else the one of the
// toolchain that built this program.
func findGo() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if isExecutable(p) {
		return p, nil
	}
	return "", fmt.Errorf("binaries: no go command on PATH to build the control plane; set %s to a folder holding %s",
		DirEnv, strings.Join(All, ", "))
}
