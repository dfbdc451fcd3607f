// Command codegen generates the typed clients, clientset, scheme and apply
// configurations of a set of Kubernetes API packages.
//
// It parses the API packages with go/parser (located with go list), builds a
// model of their groups, resources and types, and writes gofmt-clean files
// marked as generated. Typical use from the module root:
//
//	go run ./cmd/codegen -output-dir . -inputs k8s.io/api/apps/v1,k8s.io/api/core/v1
//
// By default the packages are laid out as k8s.io/code-generator lays them
// out (clientset/versioned, informers/externalversions, listers/<group>/<version>,
// applyconfiguration), so code that imports clients made by code-generator
// keeps its imports; -layout client-go writes client-go's own layout
// (kubernetes, informers, listers, applyconfigurations), which the library's
// generated tree uses. From a user's module, as a Go tool:
//
//	go get -tool github.com/kubeclient/client-go/cmd/codegen
//	go tool codegen -module example.com/m/generated -output-dir generated \
//	    -inputs example.com/m/apis/stable/v1 -prefer-protobuf=false -deepcopy -decoders
//
// -decoders writes zz_generated.decoders.go next to the deepcopy functions:
// reflection-free JSON decoders for the package's objects, which register
// themselves with package decoders (pkg/decoders) so that every REST
// client of this library decodes those objects with them.
//
// With -clean, generated files (recognised by their header) that the run did
// not produce are removed from the output packages.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kubeclient/client-go/cmd/codegen/internal/applygen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/clientgen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/clientsetgen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/deepcopygen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/fakegen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/informergen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/jsondecodegen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/listergen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
	"github.com/kubeclient/client-go/cmd/codegen/internal/protodecodegen"
)

func main() {
	var (
		outputDir   = flag.String("output-dir", ".", "directory that -module maps to; files are written below it")
		module      = flag.String("module", "github.com/kubeclient/client-go", "import path of -output-dir")
		runtimePath = flag.String("runtime", "github.com/kubeclient/client-go", "module providing rest, gentype, discovery and util/apply")
		layoutName  = flag.String("layout", "code-generator", "package layout: code-generator (clientset/versioned, informers/externalversions, listers, applyconfiguration, as k8s.io/code-generator writes them) or client-go (kubernetes, informers, listers, applyconfigurations); the four flags below override single paths")
		clientset   = flag.String("clientset", "", "clientset package, relative to -module (default from -layout)")
		applyRoot   = flag.String("applyconfigurations", "", "apply configuration root package, relative to -module (default from -layout)")
		informers   = flag.String("informers", "", "informer factory package, relative to -module (default from -layout)")
		listers     = flag.String("listers", "", "lister root package, relative to -module (default from -layout)")
		inputs      = flag.String("inputs", "", "comma-separated API packages (import paths); defaults to @inputs-file")
		inputsFile  = flag.String("inputs-file", "", "file listing API packages, one per line")
		applyExtra  = flag.String("apply-only-inputs", "", "comma-separated API packages that get apply configurations but no client")
		goListDir   = flag.String("go-list-dir", ".", "directory go list runs in (a module that requires the inputs)")
		protobuf    = flag.Bool("prefer-protobuf", true, "clients ask for protobuf when the content type is unset (built-in types)")
		clean       = flag.Bool("clean", false, "remove stale generated files from the output packages")
		verbose     = flag.Bool("v", false, "print timings")
		deepcopy    = flag.Bool("deepcopy", false, "also write zz_generated.deepcopy.go into input packages tagged +k8s:deepcopy-gen=package")
		decoders    = flag.Bool("decoders", false, "also write zz_generated.decoders.go into input packages tagged +k8s:deepcopy-gen=package: JSON decoders for their objects, registered with <runtime>/pkg/decoders so that the REST clients use them")
		jsonRoots   = flag.String("jsondecode", "", "comma-separated API packages or importpath.Type roots to write reflection-free JSON decoders for, into -jsondecode-package")
		jsonPackage = flag.String("jsondecode-package", "internal/jsondecode", "package, relative to -module, receiving the JSON decoders; they call <runtime>/pkg/decoders")
		protoRoots  = flag.String("protodecode", "", "comma-separated API packages or importpath.Type roots to write reflection-free protobuf decoders for, into -protodecode-package")
		protoPkg    = flag.String("protodecode-package", "internal/protodecode", "package, relative to -module, receiving the protobuf decoders; it must be able to import <runtime>/internal/protodecode/wire")
	)
	flag.Parse()
	pkgs := splitList(*inputs)
	if *inputsFile != "" {
		data, err := os.ReadFile(*inputsFile)
		if err != nil {
			fail(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				pkgs = append(pkgs, line)
			}
		}
	}
	if len(pkgs) == 0 {
		fail(fmt.Errorf("no input packages: pass -inputs or -inputs-file"))
	}
	start := time.Now()
	extra := splitList(*applyExtra)
	u, err := model.Load(model.Options{Dir: *goListDir, Inputs: pkgs, ApplyOnly: extra})
	if err != nil {
		fail(err)
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "parsed %d packages in %v\n", len(u.Packages), time.Since(start))
	}
	l, ok := layout.Presets[*layoutName]
	if !ok {
		fail(fmt.Errorf("unknown -layout %q (code-generator or client-go)", *layoutName))
	}
	l.Module, l.OutputDir, l.RuntimePath, l.PreferProtobuf = *module, *outputDir, *runtimePath, *protobuf
	for _, o := range []struct{ flag, field *string }{
		{clientset, &l.ClientsetPath}, {applyRoot, &l.ApplyConfigPath}, {informers, &l.InformersPath}, {listers, &l.ListersPath},
	} {
		if *o.flag != "" {
			*o.field = *o.flag
		}
	}
	out := gofile.NewOutput()
	if err := clientgen.Generate(u, l, out); err != nil {
		fail(err)
	}
	if err := clientsetgen.Generate(u, l, out); err != nil {
		fail(err)
	}
	if err := applygen.Generate(u, l, out); err != nil {
		fail(err)
	}
	if err := fakegen.Generate(u, l, out); err != nil {
		fail(err)
	}
	if err := listergen.Generate(u, l, out); err != nil {
		fail(err)
	}
	if err := informergen.Generate(u, l, out); err != nil {
		fail(err)
	}
	if *deepcopy {
		if err := deepcopygen.Generate(u, l, out); err != nil {
			fail(err)
		}
	}
	if *decoders {
		opts := jsondecodegen.PackageOptions{RuntimePath: *runtimePath + "/pkg/decoders"}
		if err := jsondecodegen.GeneratePackages(u, l, out, opts); err != nil {
			fail(err)
		}
	}
	if roots := splitList(*jsonRoots); len(roots) > 0 {
		opts := jsondecodegen.Options{Roots: roots, Package: *jsonPackage, RuntimePath: *runtimePath + "/pkg/decoders"}
		if err := jsondecodegen.Generate(u, l, out, opts); err != nil {
			fail(err)
		}
	}
	if roots := splitList(*protoRoots); len(roots) > 0 {
		opts := protodecodegen.Options{Roots: roots, Package: *protoPkg, RuntimePath: *runtimePath + "/internal/protodecode/wire"}
		if err := protodecodegen.Generate(u, l, out, opts); err != nil {
			fail(err)
		}
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "generated %d files in %v\n", len(out.Paths()), time.Since(start))
	}
	if err := write(out, *outputDir, *clean); err != nil {
		fail(err)
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "done in %v\n", time.Since(start))
	}
}

// write stores the output below dir, leaving unchanged files untouched, and
// with clean removes generated files of the touched directories that the
// run did not produce.
func write(out *gofile.Output, dir string, clean bool) error {
	produced := map[string]bool{}
	dirs := map[string]bool{}
	for _, p := range out.Paths() {
		full := filepath.Join(dir, filepath.FromSlash(p))
		produced[full] = true
		dirs[filepath.Dir(full)] = true
		if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, out.Content(p)) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, out.Content(p), 0o644); err != nil {
			return err
		}
	}
	if !clean {
		return nil
	}
	for d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, e := range entries {
			full := filepath.Join(d, e.Name())
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || produced[full] {
				continue
			}
			src, err := os.ReadFile(full)
			if err != nil {
				return err
			}
			if gofile.IsGenerated(src) {
				if err := os.Remove(full); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "codegen:", err)
	os.Exit(1)
}
