package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeclient/client-go/cmd/codegen/internal/applygen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/clientgen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/clientsetgen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// TestGeneratedSubsetCompiles generates the clients of one built-in group
// version into a scratch package of this module, as a user generating for a
// subset would, and builds it: references to other built-in packages must
// resolve to the runtime's apply configurations.
func TestGeneratedSubsetCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	scratch, err := os.MkdirTemp("testdata", "gen-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(scratch) })
	rel := filepath.ToSlash(filepath.Join("cmd/codegen", scratch))
	module := "github.com/kubeclient/client-go/" + rel
	u, err := model.Load(model.Options{Dir: root, Inputs: []string{"k8s.io/api/apps/v1"}})
	if err != nil {
		t.Fatal(err)
	}
	l := layout.Layout{
		Module: module, OutputDir: scratch, RuntimePath: "github.com/kubeclient/client-go",
		ClientsetPath: "kubernetes", ApplyConfigPath: "applyconfigurations", PreferProtobuf: true,
	}
	out := gofile.NewOutput()
	for _, gen := range []func(*model.Universe, layout.Layout, *gofile.Output) error{clientgen.Generate, clientsetgen.Generate, applygen.Generate} {
		if err := gen(u, l, out); err != nil {
			t.Fatal(err)
		}
	}
	if err := write(out, scratch, false); err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, p := range []string{"kubernetes", "kubernetes/scheme", "kubernetes/typed/apps/v1", "applyconfigurations", "applyconfigurations/apps/v1", "applyconfigurations/internal"} {
		pkgs = append(pkgs, module+"/"+p)
	}
	cmd := exec.Command("go", append([]string{"vet"}, pkgs...)...)
	cmd.Dir = root
	if outb, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generated code does not build: %v\n%s", err, outb)
	}
	src := string(out.Content("applyconfigurations/apps/v1/deploymentspec.go"))
	if !strings.Contains(src, `"github.com/kubeclient/client-go/applyconfigurations/core/v1"`) {
		t.Errorf("core/v1 types should come from the runtime's apply configurations:\n%s", src)
	}
	if out.Content("applyconfigurations/core/v1/podspec.go") != nil {
		t.Error("apply configurations of a non-input built-in package were generated")
	}
}
