package deepcopygen

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// FileName is the name of the file written into each tagged package.
const FileName = "zz_generated.deepcopy.go"

const (
	packageTag    = "k8s:deepcopy-gen"
	interfacesTag = "k8s:deepcopy-gen:interfaces"
	runtimeObject = "k8s.io/apimachinery/pkg/runtime.Object"
	runtimePkg    = "k8s.io/apimachinery/pkg/runtime"
)

// Generate adds a deepcopy file to out for every input package of u tagged
// +k8s:deepcopy-gen=package. The file goes next to the types: its path is
// the package's import path taken relative to l.Module, so the packages must
// share a leading path with the module (examples/crd/apis/stable/v1 next to
// an output module examples/crd/generated gives ../apis/stable/v1).
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output) error {
	for _, gv := range u.GroupVersions() {
		p := gv.Package
		if !Tagged(p) {
			continue
		}
		rel, err := RelativeImport(l.Module, p.Path)
		if err != nil {
			return fmt.Errorf("deepcopy: %v", err)
		}
		g := &generator{u: u, pkg: p, f: gofile.New(p.Name), shallow: map[*model.Type]bool{}}
		if err := g.packageFile(); err != nil {
			return fmt.Errorf("deepcopy: %s: %v", p.Path, err)
		}
		if err := out.Add(rel, FileName, g.f); err != nil {
			return err
		}
	}
	return nil
}

// Tagged reports whether the API package p is tagged
// +k8s:deepcopy-gen=package: a package whose generated files (deepcopy
// functions, and with -decoders its JSON decoders) go next to its types.
func Tagged(p *model.Package) bool { return p.Tags.Value(packageTag) == "package" }

// RelativeImport returns the slash path leading from the import path module
// to the import path pkg, such as ../apis/stable/v1.
func RelativeImport(module, pkg string) (string, error) {
	m, p := strings.Split(module, "/"), strings.Split(pkg, "/")
	n := 0
	for n < len(m) && n < len(p) && m[n] == p[n] {
		n++
	}
	if n == 0 {
		return "", fmt.Errorf("package %s shares no leading path with module %s, so its file cannot be placed below -output-dir", pkg, module)
	}
	parts := make([]string, 0, len(m)-n+len(p)-n)
	for range m[n:] {
		parts = append(parts, "..")
	}
	parts = append(parts, p[n:]...)
	return path.Join(parts...), nil
}

// generator writes the deepcopy functions of one package.
type generator struct {
	u   *model.Universe
	pkg *model.Package
	f   *gofile.File
	// shallow caches whether a type can be copied by assignment; an entry
	// being computed is false, which ends recursion on cyclic types.
	shallow map[*model.Type]bool
}

func (g *generator) packageFile() error {
	names := append([]string(nil), g.pkg.Order...)
	sort.Strings(names)
	for _, name := range names {
		t := g.pkg.Types[name]
		if t.Alias || t.Tags.Value(packageTag) == "false" {
			continue
		}
		switch {
		case t.Kind == model.KindStruct:
			if err := g.structFuncs(t); err != nil {
				return fmt.Errorf("%s: %v", t.Name, err)
			}
		case !g.isShallow(t.Underlying):
			if err := g.namedFuncs(t); err != nil {
				return fmt.Errorf("%s: %v", t.Name, err)
			}
		}
	}
	return nil
}

// structFuncs writes DeepCopyInto, DeepCopy and, when tagged, DeepCopyObject
// for a struct type.
func (g *generator) structFuncs(t *model.Type) error {
	g.f.Printf("// DeepCopyInto copies the receiver into out, which must be non-nil; reference fields are copied deeply.\n")
	g.f.Printf("func (in *%s) DeepCopyInto(out *%s) {\n*out = *in\n", t.Name, t.Name)
	for _, fld := range t.Fields {
		if g.isShallow(fld.Type) {
			continue
		}
		if fld.Type.Kind == model.RefNamed && g.hasDeepCopyInto(fld.Type) && g.structLike(fld.Type) {
			g.f.Printf("in.%s.DeepCopyInto(&out.%s)\n", fld.Name, fld.Name)
			continue
		}
		g.f.Printf("{\nin, out := &in.%s, &out.%s\n", fld.Name, fld.Name)
		if err := g.copyInto(fld.Type, ""); err != nil {
			return fmt.Errorf("field %s: %v", fld.Name, err)
		}
		g.f.Printf("}\n")
	}
	g.f.Printf("}\n\n")
	g.f.Printf("// DeepCopy returns a deep copy of the receiver, or nil for a nil receiver.\n")
	g.f.Printf("func (in *%s) DeepCopy() *%s {\nif in == nil {\nreturn nil\n}\nout := new(%s)\nin.DeepCopyInto(out)\nreturn out\n}\n\n", t.Name, t.Name, t.Name)
	if g.implementsObject(t) {
		obj := g.f.Qualify(g.pkg.Path, runtimePkg, "Object")
		g.f.Printf("// DeepCopyObject returns a deep copy of the receiver as a runtime.Object.\n")
		g.f.Printf("func (in *%s) DeepCopyObject() %s {\nif c := in.DeepCopy(); c != nil {\nreturn c\n}\nreturn nil\n}\n\n", t.Name, obj)
	}
	return nil
}

// namedFuncs writes DeepCopyInto and DeepCopy for a named slice, map or
// pointer type.
func (g *generator) namedFuncs(t *model.Type) error {
	if g.implementsObject(t) {
		return fmt.Errorf("only struct types can implement %s", runtimeObject)
	}
	g.f.Printf("// DeepCopyInto copies the receiver into out, which must be non-nil.\n")
	g.f.Printf("func (in %s) DeepCopyInto(out *%s) {\n{\nin := &in\n", t.Name, t.Name)
	if err := g.copyInto(t.Underlying, t.Name); err != nil {
		return err
	}
	g.f.Printf("}\n}\n\n")
	g.f.Printf("// DeepCopy returns a deep copy of the receiver, or nil for a nil receiver.\n")
	g.f.Printf("func (in %s) DeepCopy() %s {\nif in == nil {\nreturn nil\n}\nout := new(%s)\nin.DeepCopyInto(out)\nreturn *out\n}\n\n", t.Name, t.Name, t.Name)
	return nil
}

func (g *generator) implementsObject(t *model.Type) bool { return ImplementsObject(t) }

// ImplementsObject reports whether t is tagged
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object, so
// that its deepcopy functions include DeepCopyObject.
func ImplementsObject(t *model.Type) bool {
	for _, v := range t.Tags[interfacesTag] {
		for _, iface := range strings.Split(v, ",") {
			if strings.TrimSpace(iface) == runtimeObject {
				return true
			}
		}
	}
	return false
}

// copyInto writes statements that make *out a deep copy of *in, where in and
// out are pointers to a value of type r. named, when set, is the Go type
// expression to use for r itself (a named slice or map type).
func (g *generator) copyInto(r *model.TypeRef, named string) error {
	if g.isShallow(r) {
		g.f.Printf("*out = *in\n")
		return nil
	}
	typ := named
	if typ == "" {
		typ = g.typeExpr(r)
	}
	switch r.Kind {
	case model.RefNamed:
		if !g.hasDeepCopyInto(r) {
			return fmt.Errorf("type %s.%s holds references but has no DeepCopyInto", r.PkgPath, r.Name)
		}
		if g.structLike(r) {
			g.f.Printf("(*in).DeepCopyInto(out)\n")
			return nil
		}
		g.f.Printf("if *in == nil {\n*out = nil\n} else {\n(*in).DeepCopyInto(out)\n}\n")
		return nil
	case model.RefPointer:
		g.f.Printf("if *in == nil {\n*out = nil\n} else {\n*out = new(%s)\n", g.typeExpr(r.Elem))
		if r.Elem.Kind == model.RefNamed && g.structLike(r.Elem) && !g.isShallow(r.Elem) {
			g.f.Printf("(*in).DeepCopyInto(*out)\n}\n")
			return nil
		}
		g.f.Printf("in, out := *in, *out\n")
		if err := g.copyInto(r.Elem, ""); err != nil {
			return err
		}
		g.f.Printf("}\n")
		return nil
	case model.RefSlice:
		g.f.Printf("if *in == nil {\n*out = nil\n} else {\n*out = make(%s, len(*in))\n", typ)
		if g.isShallow(r.Elem) {
			g.f.Printf("copy(*out, *in)\n}\n")
			return nil
		}
		g.f.Printf("for i := range *in {\n")
		if r.Elem.Kind == model.RefNamed && g.structLike(r.Elem) {
			g.f.Printf("(*in)[i].DeepCopyInto(&(*out)[i])\n}\n}\n")
			return nil
		}
		g.f.Printf("in, out := &(*in)[i], &(*out)[i]\n")
		if err := g.copyInto(r.Elem, ""); err != nil {
			return err
		}
		g.f.Printf("}\n}\n")
		return nil
	case model.RefMap:
		if !g.isShallow(r.Key) {
			return fmt.Errorf("map key type %s is not comparable by value", g.typeExpr(r.Key))
		}
		g.f.Printf("if *in == nil {\n*out = nil\n} else {\n*out = make(%s, len(*in))\nfor key, val := range *in {\n", typ)
		if g.isShallow(r.Elem) {
			g.f.Printf("(*out)[key] = val\n}\n}\n")
			return nil
		}
		g.f.Printf("var outVal %s\n{\nin, out := &val, &outVal\n", g.typeExpr(r.Elem))
		if err := g.copyInto(r.Elem, ""); err != nil {
			return err
		}
		g.f.Printf("}\n(*out)[key] = outVal\n}\n}\n")
		return nil
	}
	return fmt.Errorf("cannot deep-copy %s", g.typeExpr(r))
}

// isShallow reports whether a value of type r shares no memory with its
// copy after assignment.
func (g *generator) isShallow(r *model.TypeRef) bool {
	switch r.Kind {
	case model.RefBuiltin:
		return true
	case model.RefNamed:
		t := g.u.Lookup(r)
		if t == nil {
			// Types of packages the loader did not parse (time.Duration)
			// are value types in practice.
			return true
		}
		if t.Package != g.pkg && t.Methods["DeepCopyInto"] {
			return false
		}
		if v, seen := g.shallow[t]; seen {
			return v
		}
		g.shallow[t] = false
		v := true
		if t.Kind == model.KindStruct {
			for _, f := range t.Fields {
				if !g.isShallow(f.Type) {
					v = false
					break
				}
			}
		} else {
			v = g.isShallow(t.Underlying)
		}
		g.shallow[t] = v
		return v
	}
	return false
}

// hasDeepCopyInto reports whether the named type r has, or is given by this
// run, a DeepCopyInto method.
func (g *generator) hasDeepCopyInto(r *model.TypeRef) bool {
	t := g.u.Lookup(r)
	if t == nil {
		return false
	}
	if t.Package == g.pkg {
		return t.Tags.Value(packageTag) != "false"
	}
	return t.Methods["DeepCopyInto"]
}

// structLike reports whether r names a struct, whose DeepCopyInto has a
// pointer receiver and needs no nil check.
func (g *generator) structLike(r *model.TypeRef) bool {
	t := g.u.Lookup(r)
	return t != nil && t.Kind == model.KindStruct
}

// typeExpr returns the Go expression of r in the generated file.
func (g *generator) typeExpr(r *model.TypeRef) string {
	switch r.Kind {
	case model.RefBuiltin:
		return r.Name
	case model.RefNamed:
		return g.f.Qualify(g.pkg.Path, r.PkgPath, r.Name)
	case model.RefPointer:
		return "*" + g.typeExpr(r.Elem)
	case model.RefSlice:
		return "[]" + g.typeExpr(r.Elem)
	case model.RefMap:
		return "map[" + g.typeExpr(r.Key) + "]" + g.typeExpr(r.Elem)
	case model.RefInterface:
		return "interface{}"
	}
	return path.Join(r.PkgPath, r.Name)
}
