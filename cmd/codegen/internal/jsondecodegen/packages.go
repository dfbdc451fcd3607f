package jsondecodegen

import (
	"fmt"

	"github.com/kubeclient/client-go/cmd/codegen/internal/deepcopygen"
	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// FileName is the name of the decoders file GeneratePackages writes into
// each user API package, and TestFileName that of the test checking them.
const (
	FileName     = "zz_generated.decoders.go"
	TestFileName = "zz_generated.decoders_test.go"
)

// PackageOptions selects what GeneratePackages writes.
type PackageOptions struct {
	// RuntimePath is the import path of package decoders, the runtime
	// the generated functions call (<runtime>/pkg/decoders).
	RuntimePath string
}

// GeneratePackages writes FileName into every input package tagged
// +k8s:deepcopy-gen=package, next to its deepcopy functions (placed as
// deepcopygen places them): unexported JSON decode functions for the
// package's objects (its struct types that implement runtime.Object,
// tagged +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// or declaring DeepCopyObject) and for every struct type they reach,
// whatever package declares it (metav1.ObjectMeta, corev1 types a custom
// resource embeds), with the built-in decoders' field policy; and an init
// function registering the objects' decoders with decoders.RegisterJSON,
// so that this library's REST clients decode the objects with them.
// TestFileName, beside it, checks them against apimachinery's JSON decoding
// with decoderstest.CheckJSON.
//
// There are no protobuf decoders for these packages: kube-apiserver serves
// custom resources as JSON and CBOR only.
func GeneratePackages(u *model.Universe, l layout.Layout, out *gofile.Output, opts PackageOptions) error {
	for _, gv := range u.GroupVersions() {
		p := gv.Package
		if !deepcopygen.Tagged(p) {
			continue
		}
		var roots []*model.Type
		for _, t := range p.SortedTypes() {
			if t.Kind == model.KindStruct && !t.Alias && (deepcopygen.ImplementsObject(t) || t.Methods["DeepCopyObject"]) {
				roots = append(roots, t)
			}
		}
		if len(roots) == 0 {
			continue
		}
		rel, err := deepcopygen.RelativeImport(l.Module, p.Path)
		if err != nil {
			return fmt.Errorf("decoders: %v", err)
		}
		f := gofile.New(p.Name)
		g := &generator{
			u: u, opts: Options{RuntimePath: opts.RuntimePath}, queued: map[*model.Type]bool{},
			single: f, self: p.Path, prefix: "decodeJSON",
		}
		g.registrations(f, roots)
		for _, t := range roots {
			g.enqueue(t)
		}
		for len(g.queue) > 0 {
			t := g.queue[0]
			g.queue = g.queue[1:]
			g.structDecoder(t)
		}
		if err := out.Add(rel, FileName, f); err != nil {
			return err
		}
		if err := out.Add(rel, TestFileName, testFile(p, roots, opts)); err != nil {
			return err
		}
	}
	return nil
}

// testFile returns the test of package p's generated decoders.
func testFile(p *model.Package, roots []*model.Type, opts PackageOptions) *gofile.File {
	f := gofile.New(p.Name)
	testing := f.Import("testing")
	check := f.Import(opts.RuntimePath + "/decoderstest")
	f.Printf("// TestGeneratedJSONDecoders checks the decoders of %s against\n", FileName)
	f.Printf("// apimachinery's JSON decoding on random, mutated and corrupted documents.\n")
	f.Printf("func TestGeneratedJSONDecoders(t *%s.T) {\n\t%s.CheckJSON(t,\n", testing, check)
	for _, t := range roots {
		f.Printf("\t\t&%s{},\n", t.Name)
	}
	f.Printf("\t)\n}\n")
	return f
}

// registrations writes the init function registering the decoders of
// roots.
func (g *generator) registrations(f *gofile.File, roots []*model.Type) {
	g.f = f
	dec := f.Import(g.opts.RuntimePath)
	f.Printf("// init registers the JSON decoders of the package's objects with\n")
	f.Printf("// package decoders, where this library's REST clients find them\n")
	f.Printf("// (KUBECLIENT_GENERATED_DECODERS=false makes them decode with\n")
	f.Printf("// apimachinery's JSON serializer instead).\n")
	f.Printf("func init() {\n")
	for _, t := range roots {
		f.Printf("\t%s.RegisterJSON(%s)\n", dec, g.funcName(t))
	}
	f.Printf("}\n\n")
}
