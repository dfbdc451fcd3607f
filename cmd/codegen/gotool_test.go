package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoToolInUserModule runs the generator the way the README tells a user
// to: in a module of their own (testdata/usermodule, a CRD type and a test of
// the generated code), `go get -tool` the generator, `go tool codegen` with
// the default, k8s.io/code-generator-compatible layout, deepcopy functions
// and JSON decoders (-decoders, which must register themselves with
// pkg/decoders from the user's package), then build and test.
// The module is not published, so the scratch go.mod replaces it with this
// checkout, and GOPROXY=off keeps go get from asking the proxy about it. The
// later steps use the environment's proxy: they may need the go.mod of a
// module version the library's build never downloaded (a requirement of a
// requirement), which a fresh module cache lacks.
func TestGoToolInUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a scratch module")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyDir(t, "testdata/usermodule", dir)
	goMod := "module example.com/widgets\n\ngo 1.26.0\n\n" +
		"require github.com/kubeclient/client-go v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/kubeclient/client-go => " + repo + "\n"
	writeTestFile(t, filepath.Join(dir, "go.mod"), goMod)
	// The library's go.sum covers every module the scratch module needs.
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "go.sum"), string(sum))

	offline := false
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		if offline {
			cmd.Env = append(cmd.Env, "GOPROXY=off")
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	offline = true
	run("get", "-tool", "github.com/kubeclient/client-go/cmd/codegen")
	offline = false
	run("tool", "codegen",
		"-module", "example.com/widgets/generated",
		"-output-dir", "generated",
		"-inputs", "example.com/widgets/apis/stable/v1",
		"-prefer-protobuf=false",
		"-deepcopy",
		"-decoders")
	for _, p := range []string{
		"generated/clientset/versioned/clientset.go",
		"generated/clientset/versioned/fake/clientset_generated.go",
		"generated/informers/externalversions/factory.go",
		"generated/listers/stable/v1/widget.go",
		"generated/applyconfiguration/stable/v1/widget.go",
		"apis/stable/v1/zz_generated.deepcopy.go",
		"apis/stable/v1/zz_generated.decoders.go",
		"apis/stable/v1/zz_generated.decoders_test.go",
	} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("not generated: %v", err)
		}
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(mod), "tool github.com/kubeclient/client-go/cmd/codegen") {
		t.Errorf("go get -tool did not record the tool:\n%s", mod)
	}
	run("vet", "./...")
	run("test", "-count=1", "./...")
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
