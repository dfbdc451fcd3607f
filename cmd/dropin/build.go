package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const (
	// sourceModule is the module path of this library.
	sourceModule = "github.com/kubeclient/client-go"
	// targetModule is the module path the drop-in is written as.
	targetModule = "k8s.io/client-go"
	// marker is the file that identifies an output directory as a drop-in,
	// so that a rerun may clear it.
	marker = "README.md"
	// markerLine starts the marker file.
	markerLine = "# k8s.io/client-go drop-in built from kubeclient"
)

// builder writes one drop-in tree. It is used once, by one goroutine.
type builder struct {
	src, dst string
	tests    bool
	commit   string
	files    int // files written so far
}

// run writes the whole drop-in: the packages, then go.mod, go.sum, LICENSE
// and README.md.
func (b *builder) run() error {
	if err := checkSource(b.src); err != nil {
		return err
	}
	if err := prepareOutput(b.dst); err != nil {
		return err
	}
	if err := b.copyTree(); err != nil {
		return err
	}
	mod, err := goMod(b.src, b.commit)
	if err != nil {
		return err
	}
	sum, err := goSum(b.src)
	if err != nil {
		return err
	}
	license, err := os.ReadFile(filepath.Join(b.src, "LICENSE"))
	if err != nil {
		return fmt.Errorf("reading the license: %w", err)
	}
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"go.mod", mod},
		{"go.sum", sum},
		{"LICENSE", license},
		{marker, readme(b.commit, b.tests)},
	} {
		if err := b.write(f.name, f.data); err != nil {
			return err
		}
	}
	return nil
}

// write stores data at the slash-separated path rel below the output.
func (b *builder) write(rel string, data []byte) error {
	full := filepath.Join(b.dst, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		return err
	}
	b.files++
	return nil
}

// checkSource makes sure root is the library's module root.
func checkSource(root string) error {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return fmt.Errorf("%s is not the kubeclient module root: %w", root, err)
	}
	if modulePath(data) != sourceModule {
		return fmt.Errorf("%s/go.mod is module %q, want %s", root, modulePath(data), sourceModule)
	}
	return nil
}

// prepareOutput creates dir, or empties it when it holds an earlier drop-in.
// A non-empty directory that is not a drop-in is refused, so that a wrong -o
// loses nothing.
func prepareOutput(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	head, err := os.ReadFile(filepath.Join(dir, marker))
	if err != nil || !bytes.HasPrefix(head, []byte(markerLine)) {
		return fmt.Errorf("%s is not empty and holds no earlier drop-in (no %s starting %q); choose another directory", dir, marker, markerLine)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// sourceCommit names the checked-out commit of root, with +dirty when the
// tree has uncommitted changes, or "unknown" outside a git checkout.
func sourceCommit(root string) string {
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(head))
	status, err := exec.Command("git", "-C", root, "status", "--porcelain").Output()
	if err == nil && len(bytes.TrimSpace(status)) > 0 {
		rev += "+dirty"
	}
	return rev
}
