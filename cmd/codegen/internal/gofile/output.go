package gofile

import (
	"fmt"
	"path"
	"sort"
)

// Output collects generated files by path relative to the output root.
type Output struct {
	files map[string][]byte
}

// NewOutput returns an empty Output.
func NewOutput() *Output { return &Output{files: map[string][]byte{}} }

// Add formats f and stores it at dir/name.
func (o *Output) Add(dir, name string, f *File) error {
	src, err := f.Bytes()
	if err != nil {
		return fmt.Errorf("%s: %v", path.Join(dir, name), err)
	}
	o.files[path.Join(dir, name)] = src
	return nil
}

// Paths returns the stored paths in sorted order.
func (o *Output) Paths() []string {
	out := make([]string, 0, len(o.files))
	for p := range o.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Content returns the bytes stored at p.
func (o *Output) Content(p string) []byte { return o.files[p] }
