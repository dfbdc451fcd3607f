package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompareSemver(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"v1.2.3", "v1.2.3", 0},
		{"v1.2.3", "v1.10.0", -1},
		{"v2.0.1+incompatible", "v2.0.0+incompatible", 1},
		{"v1.0.0", "v1.0.0-rc.1", 1},
		{"v1.0.0-rc.2", "v1.0.0-rc.10", -1},
		{"v1.0.0-alpha", "v1.0.0-1", 1},
		{"v0.0.0-20260721132016-d427ff9ee9ad", "v0.0.0-20260626114624-be93311217bd", 1},
		{"v1.5.4-0.20250319132907-e064f32e3674", "v1.5.3", 1},
		{"v1.5.4-0.20250319132907-e064f32e3674", "v1.5.4", -1},
	} {
		if got := compareSemver(tc.a, tc.b); got != tc.want {
			t.Errorf("compareSemver(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := compareSemver(tc.b, tc.a); got != -tc.want {
			t.Errorf("compareSemver(%s, %s) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
}

func TestRewriteModule(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{
			name: "imports re-sorted",
			in:   "package p\n\nimport (\n\t\"fmt\"\n\t\"github.com/kubeclient/client-go/rest\"\n\t\"k8s.io/api/core/v1\"\n)\n",
			want: "package p\n\nimport (\n\t\"fmt\"\n\t\"k8s.io/api/core/v1\"\n\t\"k8s.io/client-go/rest\"\n)\n",
		},
		{
			name: "comments and root path",
			in:   "// Use github.com/kubeclient/client-go.\npackage p\n\nconst m = \"github.com/kubeclient/client-go\"\n",
			want: "// Use k8s.io/client-go.\npackage p\n\nconst m = \"k8s.io/client-go\"\n",
		},
		{
			name: "longer paths kept",
			in:   "package p\n\nconst m = \"github.com/kubeclient/client-go-extra/x\"\n",
			want: "package p\n\nconst m = \"github.com/kubeclient/client-go-extra/x\"\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rewriteModule([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestGoModMergesRequirements(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "go.mod"), "module github.com/kubeclient/client-go\n\ngo 1.26.0\n\n"+
		"require (\n\tgolang.org/x/net v9.9.9\n\texample.com/only/ours v1.0.0 // indirect\n)\n"+
		"replace example.com/only/ours => ../elsewhere\n")
	mod, err := goMod(src, "abc123")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parseGoMod(mod)
	if err != nil {
		t.Fatal(err)
	}
	upstream, _ := parseGoMod(clientGoMod)
	if f.module != "k8s.io/client-go" || f.goLine != "go 1.26.0" {
		t.Errorf("module %q, %q", f.module, f.goLine)
	}
	for path, r := range upstream.require {
		got, ok := f.require[path]
		if !ok || (path != "golang.org/x/net" && got.version != r.version) {
			t.Errorf("%s: got %+v, want client-go's %s", path, got, r.version)
		}
	}
	if got := f.require["golang.org/x/net"]; got.version != "v9.9.9" || got.indirect {
		t.Errorf("x/net: got %+v, want our higher direct v9.9.9", got)
	}
	if got := f.require["example.com/only/ours"]; got.version != "v1.0.0" || !got.indirect {
		t.Errorf("our own requirement: got %+v", got)
	}
	if bytes.Contains(mod, []byte("replace")) || !bytes.Contains(mod, []byte("abc123")) {
		t.Errorf("go.mod:\n%s", mod)
	}
}

func TestPrepareOutputRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "notes.txt"), "mine")
	if err := prepareOutput(dir); err == nil {
		t.Fatal("a directory that holds no drop-in was accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatalf("the foreign file is gone: %v", err)
	}
	writeFile(t, filepath.Join(dir, marker), markerLine+"\n")
	if err := prepareOutput(dir); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("an earlier drop-in was not cleared: %v", entries)
	}
}

// TestDropInReproducibleAndBuilds writes the drop-in of this checkout twice,
// compares the trees byte for byte and builds the result as k8s.io/client-go.
func TestDropInReproducibleAndBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole library")
	}
	src, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var trees []map[string][]byte
	var first string
	for i := 0; i < 2; i++ {
		dst := filepath.Join(t.TempDir(), "dropin")
		b := builder{src: src, dst: dst, commit: "test"}
		if err := b.run(); err != nil {
			t.Fatal(err)
		}
		trees = append(trees, readTree(t, dst))
		if i == 0 {
			first = dst
		}
	}
	if len(trees[0]) != len(trees[1]) {
		t.Fatalf("runs wrote %d and %d files", len(trees[0]), len(trees[1]))
	}
	for name, data := range trees[0] {
		if !bytes.Equal(data, trees[1][name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	for name, data := range trees[0] {
		switch {
		case strings.HasSuffix(name, "_test.go"), strings.HasPrefix(name, "hack/"), strings.HasPrefix(name, "cmd/"), strings.HasPrefix(name, "examples/"),
			strings.HasPrefix(name, "bench/"), strings.HasPrefix(name, "test/integration/"):
			t.Errorf("%s should not be in the drop-in", name)
		case strings.HasSuffix(name, ".go") && bytes.Contains(data, []byte(sourceModule)):
			t.Errorf("%s still mentions %s", name, sourceModule)
		}
	}
	for _, want := range []string{"go.mod", "go.sum", "LICENSE", "README.md", "rest/config.go", "kubernetes/clientset.go", "informers/factory.go"} {
		if _, ok := trees[0][want]; !ok {
			t.Errorf("%s missing", want)
		}
	}
	cmd := exec.Command("go", "build", "-trimpath", "./...")
	cmd.Dir = first
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./... in the drop-in: %v\n%s", err, out)
	}
}

func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
