package main

import (
	"bytes"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// skippedTopDirs are directories of the checkout that hold no library
// package: tooling, examples and documentation.
var skippedTopDirs = map[string]bool{
	"cmd":      true,
	"hack":     true,
	"examples": true,
	"docs":     true,
	"bin":      true,
}

// copyTree copies the library's packages to the output in lexical order,
// rewriting the module path in Go files. It leaves out nested modules,
// hidden and underscore directories, skippedTopDirs, the root's non-Go files
// (go.mod and friends are written separately) and, without -tests, test files.
func (b *builder) copyTree() error {
	return filepath.WalkDir(b.src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(b.src, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || (!strings.Contains(rel, "/") && skippedTopDirs[name]) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !b.wanted(rel, name) {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file (symlinks are not copied)", rel)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, ".go") {
			if data, err = rewriteModule(data); err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
		}
		return b.write(rel, data)
	})
}

// wanted reports whether the file rel (slash-separated, below the root) with
// base name name belongs to the drop-in.
func (b *builder) wanted(rel, name string) bool {
	switch {
	case strings.HasPrefix(name, "."):
		return false
	case strings.HasSuffix(name, "_test.go"):
		return b.tests
	case !strings.Contains(rel, "/"):
		// The root's other files (go.mod, go.sum, LICENSE, README.md,
		// Makefile) are written by run or do not belong to the drop-in.
		return strings.HasSuffix(name, ".go")
	}
	return true
}

// rewriteModule replaces the module path sourceModule by targetModule
// wherever it stands as a whole path (imports, comments, linker flags in
// docs) and gofmts the result, which re-sorts the changed imports.
func rewriteModule(src []byte) ([]byte, error) {
	old := []byte(sourceModule)
	var out bytes.Buffer
	changed := false
	for {
		i := bytes.Index(src, old)
		if i < 0 {
			out.Write(src)
			break
		}
		end := i + len(old)
		out.Write(src[:i])
		if continuesPath(src[end:]) {
			out.Write(old) // a longer path such as .../client-go-extra: not ours
		} else {
			out.WriteString(targetModule)
			changed = true
		}
		src = src[end:]
	}
	if !changed {
		return out.Bytes(), nil
	}
	formatted, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt after rewriting imports: %w", err)
	}
	return formatted, nil
}

// continuesPath reports whether rest, the text after a match, continues the
// path element (client-go-extra, client-go.v2); a dot that ends a sentence
// does not.
func continuesPath(rest []byte) bool {
	if len(rest) == 0 {
		return false
	}
	if rest[0] == '.' {
		return len(rest) > 1 && isPathByte(rest[1])
	}
	return isPathByte(rest[0])
}

// isPathByte reports whether c may stand in an import path element.
func isPathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '~'
}
