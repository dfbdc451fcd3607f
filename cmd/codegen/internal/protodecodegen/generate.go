package protodecodegen

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
	// Roots are API packages (every type with DeepCopyObject and an
	// Unmarshal method becomes a root object) or single types written as
	// importpath.TypeName.
	Roots []string
	// Package is the output package relative to the layout's module
	// (internal/protodecode). It must be able to import RuntimePath.
	Package string
	// RuntimePath is the import path of the wire runtime.
	RuntimePath string
}

// Generate writes one file per API package holding the decoders of its
// reachable message types, and zz_generated.objects.go with the root
// object switch.
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output, opts Options) error {
	g := &generator{u: u, opts: opts, queued: map[*model.Type]bool{}, files: map[string]*gofile.File{}}
	roots, err := g.roots()
	if err != nil {
		return err
	}
	g.isRoot = map[*model.Type]bool{}
	for _, t := range roots {
		g.isRoot[t] = true
		g.enqueue(t)
	}
	g.isSpec = g.specTypes(roots)
	for len(g.queue) > 0 {
		t := g.queue[0]
		g.queue = g.queue[1:]
		g.messageDecoder(t)
	}
	obj := gofile.New(path.Base(opts.Package))
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
	// isRoot holds the object types decodeObject handles.
	isRoot map[*model.Type]bool
	// isSpec holds the types of the roots' reused specs and the message
	// types reachable from them (see specTypes).
	isSpec map[*model.Type]bool
}

func (g *generator) roots() ([]*model.Type, error) {
	return decoderoots.Resolve(g.u, g.opts.Roots, "protodecode", func(t *model.Type) bool { return t.Methods["Unmarshal"] })
}

func (g *generator) enqueue(t *model.Type) {
	if !g.queued[t] {
		g.queued[t] = true
		g.queue = append(g.queue, t)
	}
}

// ident is the identifier part for a package: corev1, metav1, resource.
func ident(pkgPath string) string { return decoderoots.Ident(pkgPath) }

func funcName(t *model.Type) string {
	id := ident(t.Package.Path)
	return "decode" + strings.ToUpper(id[:1]) + id[1:] + t.Name
}

func (g *generator) fileFor(t *model.Type) *gofile.File {
	f := g.files[t.Package.Path]
	if f == nil {
		f = gofile.New(path.Base(g.opts.Package))
		g.files[t.Package.Path] = f
	}
	return f
}

func (g *generator) objectSwitch(f *gofile.File, roots []*model.Type) {
	g.f = f
	rt := f.Import("k8s.io/apimachinery/pkg/runtime")
	wire := f.Import(g.opts.RuntimePath)
	f.Printf("// decodeObject decodes the message r reads into obj, which the caller has\n// reset, when obj's type has a generated decoder, reporting whether it has.\n")
	f.Printf("func decodeObject(r %s.Reader, obj %s.Object) (bool, error) {\n\tswitch o := obj.(type) {\n", wire, rt)
	for _, t := range roots {
		f.Printf("\tcase *%s:\n\t\treturn true, %s(r, o)\n", g.typeName(t), funcName(t))
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
	return g.f.Qualify("", t.Package.Path, t.Name)
}

// fieldCall returns the call decoding field fld of message t, as call
// does, with the fields listed in decodepolicy and sharedBytes decoded
// as they say, and the spec of an object reused (see reusedField).
func (g *generator) fieldCall(t *model.Type, fld *model.Field, tag protoTag) (string, bool) {
	qualified := t.Package.Path + "." + t.Name + "." + fld.Name
	if sharedBytes[qualified] && g.scalarOf(fld.Type) == scalarBytes {
		return fmt.Sprintf("%s.SetSharedBytes(&r, typ, &v.%s)", g.f.Import(g.opts.RuntimePath), fld.Name), true
	}
	if decodepolicy.SharedStringMaps[qualified] && fld.Type.Kind == model.RefMap &&
		g.scalarOf(fld.Type.Key) == scalarString && g.scalarOf(fld.Type.Elem) == scalarString {
		return fmt.Sprintf("%s.SharedStringMap(&r, typ, %d, &v.%s)", g.f.Import(g.opts.RuntimePath), tag.num, fld.Name), true
	}
	if g.reusedField(t, fld) {
		if fn := g.messageFunc(fld.Type); fn != "" {
			return fmt.Sprintf("%s.Reused(&r, typ, %d, &v.%s, %s)", g.f.Import(g.opts.RuntimePath), tag.num, fld.Name, fn), true
		}
	}
	if g.listItems(t, fld) {
		if fn := g.messageFunc(fld.Type.Elem); fn != "" {
			return fmt.Sprintf("%s.AppendItem(&r, typ, %d, &v.%s, %s)", g.f.Import(g.opts.RuntimePath), tag.num, fld.Name, fn), true
		}
	}
	if g.isSpec[t] && fld.Type.Kind == model.RefSlice && fld.Type.Elem.Kind == model.RefNamed && g.scalarOf(fld.Type.Elem) == notScalar {
		if fn := g.messageFunc(fld.Type.Elem); fn != "" {
			wire := g.f.Import(g.opts.RuntimePath)
			if elem := g.lookup(fld.Type.Elem); elem != nil && g.varyMask(elem) != 0 {
				return fmt.Sprintf("%s.ReusedRunParts(&r, typ, %d, &v.%s, %s, %s.ElementParts[%s]{Vary: %#x, DecodeVary: %sVary})",
					wire, tag.num, fld.Name, fn, wire, g.typeName(elem), g.varyMask(elem), fn), true
			}
			return fmt.Sprintf("%s.ReusedRun(&r, typ, %d, &v.%s, %s)", wire, tag.num, fld.Name, fn), true
		}
	}
	if (g.isSpec[t] || reusedPointers[qualified]) && fld.Type.Kind == model.RefPointer && g.generatedMessage(fld.Type.Elem) {
		if fn := g.messageFunc(fld.Type.Elem); fn != "" {
			return fmt.Sprintf("%s.ReusedPointer(&r, typ, %d, &v.%s, %s)", g.f.Import(g.opts.RuntimePath), tag.num, fld.Name, fn), true
		}
	}
	return g.call(fld.Type, tag, "&v."+fld.Name, !decodepolicy.UniqueStrings[qualified])
}

// reusedField reports whether field fld of message t is decoded with
// wire.Reused: the Spec of an object, a message embedded by value. An
// object's spec rarely changes from one version to the next, while its
// metadata and status do. The repeated message fields of such a spec
// (containers, volumes, tolerations) are decoded with wire.ReusedRun:
// they are equal in the specs of one owner's objects that differ in a
// node name.
func (g *generator) reusedField(t *model.Type, fld *model.Field) bool {
	if !g.isRoot[t] || fld.Name != "Spec" || fld.Type.Kind != model.RefNamed {
		return false
	}
	ft := g.lookup(fld.Type)
	return ft != nil && ft.Kind == model.KindStruct && wellKnown[ft.Package.Path+"."+ft.Name] == ""
}

// listItems reports whether field fld of message t is decoded with
// wire.AppendItem: the Items of a list kind, each an object with a
// generated decoder, which an informer keeps at the address its decoder
// gave it (see package listitems).
func (g *generator) listItems(t *model.Type, fld *model.Field) bool {
	if !g.isRoot[t] || fld.Name != "Items" || fld.Type.Kind != model.RefSlice || fld.Type.Elem.Kind != model.RefNamed {
		return false
	}
	item := g.lookup(fld.Type.Elem)
	return item != nil && g.isRoot[item]
}

// specTypes returns the types of the fields reusedField picks and the
// message types reachable from them (containers, probes, volume sources),
// whose repeated and optional message fields are decoded with
// wire.ReusedRun and wire.ReusedPointer: the values of one owner's
// objects repeat there. Object metadata (package metav1, the metadata
// of a pod template) and objects are not entered: they differ from one
// object, or one version, to the next.
func (g *generator) specTypes(roots []*model.Type) map[*model.Type]bool {
	specs := map[*model.Type]bool{}
	var queue []*model.Type
	add := func(t *model.Type) {
		if t == nil || specs[t] || g.isRoot[t] || t.Kind != model.KindStruct ||
			t.Package.Path == metav1Path || wellKnown[t.Package.Path+"."+t.Name] != "" {
			return
		}
		specs[t] = true
		queue = append(queue, t)
	}
	for _, t := range roots {
		for _, fld := range t.Fields {
			if g.reusedField(t, fld) {
				add(g.lookup(fld.Type))
			}
		}
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		for _, fld := range t.Fields {
			ref := fld.Type
			for ref != nil && (ref.Kind == model.RefPointer || ref.Kind == model.RefSlice) {
				ref = ref.Elem
			}
			if ref != nil && ref.Kind == model.RefNamed {
				add(g.lookup(ref))
			}
		}
	}
	return specs
}

// elementParts names, for the element types of reused runs, the fields in
// which one owner's objects differ (see wire.ReusedRunParts): each pod has
// a service account token volume of its own name ("kube-api-access-" and
// a suffix), mounted in every container, while its containers and
// volumes are otherwise those of the other pods of its ReplicaSet.
var elementParts = map[string][]string{
	"k8s.io/api/core/v1.Container": {"VolumeMounts"},
	"k8s.io/api/core/v1.Volume":    {"Name"},
}

// varyFields returns the fields elementParts names for t (numbered
// below 64), in the order it names them.
func (g *generator) varyFields(t *model.Type) (fields []*model.Field, tags []protoTag) {
	for _, name := range elementParts[t.Package.Path+"."+t.Name] {
		for _, fld := range t.Fields {
			if tag, ok := parseTag(fld.Tag); ok && fld.Name == name && tag.num < 64 {
				fields, tags = append(fields, fld), append(tags, tag)
			}
		}
	}
	return fields, tags
}

// varyMask returns the bits of the field numbers of varyFields, or 0.
func (g *generator) varyMask(t *model.Type) uint64 {
	var mask uint64
	_, tags := g.varyFields(t)
	for _, tag := range tags {
		mask |= 1 << tag.num
	}
	return mask
}

// varyDecoder writes the function that decodes the fields of varyFields
// alone into a value holding a copy of another element, replacing what
// it held in them. A field the generator does not model is left to the
// reference (ErrFallback) when present: it is not part of the element's
// key, so it must not keep the copied value.
func (g *generator) varyDecoder(t *model.Type) {
	f := g.f
	wire := f.Import(g.opts.RuntimePath)
	var resets, cases []string
	fields, tags := g.varyFields(t)
	for i, fld := range fields {
		call, ok := g.fieldCall(t, fld, tags[i])
		if !ok {
			call = wire + ".ErrFallback"
		}
		resets = append(resets, fmt.Sprintf("\tv.%s = zero.%s\n", fld.Name, fld.Name))
		cases = append(cases, fmt.Sprintf("\t\tcase %d:\n\t\t\terr = %s\n", tags[i].num, call))
	}
	f.Printf("// %sVary decodes the fields of %s that differ from one owner's object to\n// the next alone, replacing what v held in them (see wire.ReusedRunParts).\n", funcName(t), t.Name)
	f.Printf("func %sVary(r %s.Reader, v *%s) error {\n\tvar zero %s\n", funcName(t), wire, g.typeName(t), g.typeName(t))
	for _, r := range resets {
		f.Printf("%s", r)
	}
	f.Printf("\tfor r.More() {\n\t\tnum, typ, err := r.Key()\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\tswitch num {\n")
	for _, c := range cases {
		f.Printf("%s", c)
	}
	f.Printf("\t\tdefault:\n\t\t\terr = r.Skip()\n\t\t}\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}\n\n")
}

// metav1Path is the package of object metadata.
const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// generatedMessage reports whether ref is a message type decoded by a
// generated function (not a well-known type the runtime decodes).
func (g *generator) generatedMessage(ref *model.TypeRef) bool {
	if ref == nil || ref.Kind != model.RefNamed || g.scalarOf(ref) != notScalar {
		return false
	}
	t := g.lookup(ref)
	return t != nil && t.Kind == model.KindStruct && wellKnown[t.Package.Path+"."+t.Name] == ""
}

// messageDecoder writes the decode function of message t.
func (g *generator) messageDecoder(t *model.Type) {
	g.f = g.fileFor(t)
	f := g.f
	var cases []string
	modelled := true
	finish := "return nil"
	for _, fld := range t.Fields {
		tag, ok := parseTag(fld.Tag)
		if !ok {
			continue
		}
		if g.listItems(t, fld) && g.messageFunc(fld.Type.Elem) != "" {
			finish = fmt.Sprintf("return %s.FinishItems(&r, &v.%s)", f.Import(g.opts.RuntimePath), fld.Name)
		}
		call, ok := g.fieldCall(t, fld, tag)
		if !ok {
			modelled = false
			break
		}
		cases = append(cases, fmt.Sprintf("\t\tcase %d:\n\t\t\terr = %s\n", tag.num, call))
	}
	wire := f.Import(g.opts.RuntimePath)
	f.Printf("func %s(r %s.Reader, v *%s) error {\n", funcName(t), wire, g.typeName(t))
	if !modelled {
		// A field the generator does not model: the message decodes
		// itself, as the reference decodes a nested message.
		f.Printf("\treturn v.Unmarshal(r.Message())\n}\n\n")
		return
	}
	if len(cases) == 0 {
		f.Printf("\tfor r.More() {\n\t\tif _, _, err := r.Key(); err != nil {\n\t\t\treturn err\n\t\t}\n")
		f.Printf("\t\tif err := r.Skip(); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}\n\n")
		return
	}
	f.Printf("\tfor r.More() {\n\t\tnum, typ, err := r.Key()\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n")
	f.Printf("\t\tswitch num {\n")
	for _, c := range cases {
		f.Printf("%s", c)
	}
	f.Printf("\t\tdefault:\n\t\t\terr = r.Skip()\n\t\t}\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\t%s\n}\n\n", finish)
	if g.varyMask(t) != 0 {
		g.varyDecoder(t)
	}
}
