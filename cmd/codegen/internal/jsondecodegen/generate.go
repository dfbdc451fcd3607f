package jsondecodegen

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/decodepolicy"
	"github.com/kubeclient/client-go/cmd/codegen/internal/decoderoots"
	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Options selects what Generate writes.
type Options struct {
	// Roots are API packages (every type with DeepCopyObject becomes a
	// root object) or single types written as importpath.TypeName.
	Roots []string
	// Package is the output package relative to the layout's module
	// (internal/jsondecode). It must be able to import RuntimePath.
	Package string
	// RuntimePath is the import path of the lex runtime.
	RuntimePath string
}

// wellKnown maps types whose UnmarshalJSON the runtime reproduces to the
// runtime's reader for them.
var wellKnown = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       "Time",
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  "MicroTime",
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   "Quantity",
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": "IntOrString",
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   "FieldsV1",
}

// Generate writes one file per API package holding the decoders of its
// reachable struct types, and zz_generated.objects.go with the root
// object switch.
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output, opts Options) error {
	g := &generator{u: u, opts: opts, queued: map[*model.Type]bool{}, files: map[string]*gofile.File{}}
	roots, err := g.roots()
	if err != nil {
		return err
	}
	for _, t := range roots {
		g.enqueue(t)
	}
	for len(g.queue) > 0 {
		t := g.queue[0]
		g.queue = g.queue[1:]
		g.structDecoder(t)
	}
	pkgName := path.Base(opts.Package)
	obj := gofile.New(pkgName)
	g.objectSwitch(obj, roots)
	if err := out.Add(opts.Package, "zz_generated.objects.go", obj); err != nil {
		return err
	}
	paths := make([]string, 0, len(g.files))
	for p := range g.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := out.Add(opts.Package, "zz_generated."+ident(p)+".go", g.files[p]); err != nil {
			return err
		}
	}
	return nil
}

type generator struct {
	u      *model.Universe
	opts   Options
	queue  []*model.Type
	queued map[*model.Type]bool
	// files holds the output file of each API package by import path.
	files map[string]*gofile.File
	// f is the file being written.
	f *gofile.File
	// single, when set, is the one file every decoder goes into: the
	// decoders file of a user's API package (see GeneratePackages).
	single *gofile.File
	// self is the import path of the package the files belong to when it
	// is an API package itself; its types are not qualified.
	self string
	// prefix starts the decode functions' names.
	prefix string
}

func (g *generator) roots() ([]*model.Type, error) {
	return decoderoots.Resolve(g.u, g.opts.Roots, "jsondecode", nil)
}

func (g *generator) enqueue(t *model.Type) {
	if !g.queued[t] {
		g.queued[t] = true
		g.queue = append(g.queue, t)
	}
}

// ident is the identifier part for a package: corev1, metav1, resource.
func ident(pkgPath string) string { return decoderoots.Ident(pkgPath) }

// funcName is the name of the decode function of struct t:
// decodeCorev1Pod, or with prefix decodeJSON, decodeJSONCorev1Pod.
func (g *generator) funcName(t *model.Type) string {
	id := ident(t.Package.Path)
	prefix := g.prefix
	if prefix == "" {
		prefix = "decode"
	}
	return prefix + strings.ToUpper(id[:1]) + id[1:] + t.Name
}

func (g *generator) fileFor(t *model.Type) *gofile.File {
	if g.single != nil {
		return g.single
	}
	f := g.files[t.Package.Path]
	if f == nil {
		f = gofile.New(path.Base(g.opts.Package))
		g.files[t.Package.Path] = f
	}
	return f
}

func (g *generator) objectSwitch(f *gofile.File, roots []*model.Type) {
	g.f = f
	lex := f.Import(g.opts.RuntimePath)
	rt := f.Import("k8s.io/apimachinery/pkg/runtime")
	f.Printf("// decodeObject decodes the document of l into obj when obj's type has a\n// generated decoder, reporting whether it has.\n")
	f.Printf("func decodeObject(l *%s.Lexer, obj %s.Object) (bool, error) {\n\tswitch o := obj.(type) {\n", lex, rt)
	for _, t := range roots {
		f.Printf("\tcase *%s:\n\t\treturn true, %s.Decode(l, o, %s)\n", g.typeName(t), lex, g.funcName(t))
	}
	f.Printf("\t}\n\treturn false, nil\n}\n\n")
	f.Printf("// generatedTypes returns a new value of every type decodeObject handles.\n")
	f.Printf("func generatedTypes() []%s.Object {\n\treturn []%s.Object{\n", rt, rt)
	for _, t := range roots {
		f.Printf("\t\t&%s{},\n", g.typeName(t))
	}
	f.Printf("\t}\n}\n")
}

func (g *generator) typeName(t *model.Type) string {
	return g.f.Qualify(g.self, t.Package.Path, t.Name)
}

// structDecoder writes the decode function of struct t.
func (g *generator) structDecoder(t *model.Type) {
	g.f = g.fileFor(t)
	f := g.f
	lex := f.Import(g.opts.RuntimePath)
	f.Printf("func %s(l *%s.Lexer, v *%s) error {\n", g.funcName(t), lex, g.typeName(t))
	if g.unusualTags(t, 0) {
		// Leave ",string" fields and tag names encoding/json would
		// ignore to the reference, on the whole struct's value.
		f.Printf("\treturn %s.Fallback(l, v)\n}\n\n", lex)
		return
	}
	f.Printf("\tif ok, err := l.OpenStruct(); !ok {\n\t\treturn err\n\t}\n")
	f.Printf("\tfor {\n\t\tkey, ok := l.Key()\n\t\tif !ok {\n\t\t\treturn nil\n\t\t}\n\t\tvar err error\n\t\tswitch string(key) {\n")
	for _, jf := range g.fieldsOf(t) {
		f.Printf("\t\tcase %q:\n", jf.name)
		target := "v"
		owner := t
		for i, fld := range jf.path {
			target += "." + fld.Name
			if i == len(jf.path)-1 {
				break
			}
			if fld.Type.Kind == model.RefPointer {
				f.Printf("\t\t\tif %s == nil {\n\t\t\t\t%s = new(%s)\n\t\t\t}\n", target, target, g.typeExpr(fld.Type.Elem))
			}
			owner = g.embeddedStruct(fld.Type)
		}
		last := jf.path[len(jf.path)-1]
		qualified := owner.Package.Path + "." + owner.Name + "." + last.Name
		if decodepolicy.SharedStringMaps[qualified] && g.isStringMap(last.Type) {
			f.Printf("\t\t\terr = %s.SharedStringMap(l, &%s)\n", lex, target)
			continue
		}
		f.Printf("\t\t\terr = %s\n", g.call(last.Type, "&"+target, !decodepolicy.UniqueStrings[qualified]))
	}
	f.Printf("\t\tdefault:\n\t\t\tl.Skip()\n\t\t}\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n}\n\n")
}

// call returns an expression of type error decoding the next value into
// the pointer expression target of type *ref.
func (g *generator) call(ref *model.TypeRef, target string, intern bool) string {
	lex := g.f.Import(g.opts.RuntimePath)
	fallback := fmt.Sprintf("%s.Fallback(l, %s)", lex, target)
	switch ref.Kind {
	case model.RefBuiltin:
		if fn := builtinReader(ref.Name, intern); fn != "" {
			return fmt.Sprintf("%s.%s(l, %s)", lex, fn, target)
		}
		return fallback
	case model.RefNamed:
		t := g.lookup(ref)
		if t == nil {
			return fallback
		}
		if fn, ok := wellKnown[t.Package.Path+"."+t.Name]; ok {
			return fmt.Sprintf("%s.%s(l, %s)", lex, fn, target)
		}
		if has, unknown := g.hasMethod(t, "UnmarshalJSON", 0); has {
			return fmt.Sprintf("%s.Unmarshal(l, %s)", lex, target)
		} else if unknown {
			return fallback
		}
		if has, unknown := g.hasMethod(t, "UnmarshalText", 0); has || unknown {
			return fallback
		}
		if t.Kind == model.KindStruct {
			g.enqueue(t)
			return fmt.Sprintf("%s(l, %s)", g.funcName(t), target)
		}
		if t.Underlying == nil || t.Underlying.Kind == model.RefPointer || t.Underlying.Kind == model.RefInterface {
			return fallback
		}
		return g.call(t.Underlying, target, intern)
	case model.RefPointer:
		elem := ref.Elem
		if t := g.lookup(elem); t != nil && wellKnown[t.Package.Path+"."+t.Name] != "" {
			return fmt.Sprintf("%s.Ptr(l, %s, %s.%s)", lex, target, lex, wellKnown[t.Package.Path+"."+t.Name])
		} else if t != nil {
			if has, _ := g.hasMethod(t, "UnmarshalJSON", 0); has {
				return fmt.Sprintf("%s.PtrUnmarshal(l, %s)", lex, target)
			}
		}
		if elem.Kind == model.RefPointer || g.isFallback(elem) {
			return fallback
		}
		return fmt.Sprintf("%s.Ptr(l, %s, %s)", lex, target, g.elemFunc(elem, intern))
	case model.RefSlice:
		if elem := ref.Elem; elem.Kind == model.RefBuiltin && (elem.Name == "byte" || elem.Name == "uint8") {
			return fmt.Sprintf("%s.Bytes(l, %s)", lex, target)
		}
		if g.isFallback(ref.Elem) || g.isByteLike(ref.Elem) {
			return fallback
		}
		return fmt.Sprintf("%s.Slice(l, %s, %s)", lex, target, g.elemFunc(ref.Elem, intern))
	case model.RefMap:
		if !g.isStringKind(ref.Key) || g.isFallback(ref.Elem) {
			return fallback
		}
		if t := g.lookup(ref.Elem); t != nil && t.Package.Path+"."+t.Name == "k8s.io/apimachinery/pkg/api/resource.Quantity" {
			return fmt.Sprintf("%s.QuantityMap(l, %s)", lex, target)
		}
		if g.isStringKind(ref.Elem) && !g.hasUnmarshalJSON(ref.Elem) {
			return fmt.Sprintf("%s.StringMap(l, %s)", lex, target)
		}
		return fmt.Sprintf("%s.Map(l, %s, %s)", lex, target, g.elemFunc(ref.Elem, intern))
	}
	return fallback
}

func builtinReader(name string, intern bool) string {
	switch name {
	case "string":
		if intern {
			return "String"
		}
		return "UniqueString"
	case "bool":
		return "Bool"
	case "int", "int8", "int16", "int32", "int64", "rune":
		return "Int"
	case "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte":
		return "Uint"
	case "float64":
		return "Float64"
	case "float32":
		return "Float32"
	}
	return ""
}

// isFallback reports whether values of ref are decoded whole by the
// reference decoder.
func (g *generator) isFallback(ref *model.TypeRef) bool {
	return strings.HasPrefix(g.call(ref, "nil", true), g.f.Import(g.opts.RuntimePath)+".Fallback(")
}

// hasUnmarshalJSON reports whether a named ref decodes itself.
func (g *generator) hasUnmarshalJSON(ref *model.TypeRef) bool {
	t := g.lookup(ref)
	if t == nil {
		return false
	}
	has, unknown := g.hasMethod(t, "UnmarshalJSON", 0)
	return has || unknown
}

// isByteLike reports a named type with byte kind, whose slices the
// reference decodes from base64; they are left to it.
func (g *generator) isByteLike(ref *model.TypeRef) bool {
	t := g.lookup(ref)
	return t != nil && t.Kind == model.KindOther && t.Underlying != nil && t.Underlying.Kind == model.RefBuiltin &&
		(t.Underlying.Name == "byte" || t.Underlying.Name == "uint8")
}

// isStringMap reports whether ref is a map of strings that StringMap
// decodes.
func (g *generator) isStringMap(ref *model.TypeRef) bool {
	return ref.Kind == model.RefMap && g.isStringKind(ref.Key) && g.isStringKind(ref.Elem) && !g.hasUnmarshalJSON(ref.Elem)
}

func (g *generator) isStringKind(ref *model.TypeRef) bool {
	if ref.Kind == model.RefBuiltin {
		return ref.Name == "string"
	}
	t := g.lookup(ref)
	if t == nil || t.Kind != model.KindOther || t.Underlying == nil {
		return false
	}
	if has, unknown := g.hasMethod(t, "UnmarshalText", 0); has || unknown {
		return false
	}
	return g.isStringKind(t.Underlying)
}

// elemFunc returns a function value of type func(*lex.Lexer, *T) error
// for elements of type ref.
func (g *generator) elemFunc(ref *model.TypeRef, intern bool) string {
	if t := g.lookup(ref); t != nil && wellKnown[t.Package.Path+"."+t.Name] != "" {
		return g.f.Import(g.opts.RuntimePath) + "." + wellKnown[t.Package.Path+"."+t.Name]
	}
	if t := g.lookup(ref); t != nil && t.Kind == model.KindStruct {
		if has, unknown := g.hasMethod(t, "UnmarshalJSON", 0); !has && !unknown {
			if h, u := g.hasMethod(t, "UnmarshalText", 0); !h && !u {
				g.enqueue(t)
				return g.funcName(t)
			}
		}
	}
	lex := g.f.Import(g.opts.RuntimePath)
	return fmt.Sprintf("func(l *%s.Lexer, v *%s) error { return %s }", lex, g.typeExpr(ref), g.call(ref, "v", intern))
}

// typeExpr renders ref as Go source in the current file.
func (g *generator) typeExpr(ref *model.TypeRef) string {
	switch ref.Kind {
	case model.RefBuiltin:
		return ref.Name
	case model.RefNamed:
		return g.f.Qualify(g.self, ref.PkgPath, ref.Name)
	case model.RefPointer:
		return "*" + g.typeExpr(ref.Elem)
	case model.RefSlice:
		return "[]" + g.typeExpr(ref.Elem)
	case model.RefMap:
		return "map[" + g.typeExpr(ref.Key) + "]" + g.typeExpr(ref.Elem)
	}
	return "any"
}
