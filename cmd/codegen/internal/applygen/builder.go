package applygen

import (
	"fmt"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

const (
	metaV1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// excludedFields are API fields that apply configurations leave out: the
// server owns them.
var excludedFields = map[string]map[string]bool{
	metaV1Path + ".ObjectMeta": {"SelfLink": true, "ManagedFields": true},
}

// builder writes the apply configuration file of one type.
type builder struct {
	s    *selection
	l    layout.Layout
	f    *gofile.File
	t    *model.Type
	self string // import path of the apply configuration package being written
}

func acName(typeName string) string { return typeName + "ApplyConfiguration" }

// fields returns the fields of t that apply configurations carry.
func fields(t *model.Type) []*model.Field {
	skip := excludedFields[t.Package.Path+"."+t.Name]
	var out []*model.Field
	for _, f := range t.Fields {
		if f.JSONName == "-" || skip[f.Name] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// acRef returns the apply configuration type name of a selected type,
// qualified when it lives in another package.
func (b *builder) acRef(ref *model.TypeRef) string {
	if t := b.s.u.Lookup(ref); t != nil {
		ref = t.Ref()
	}
	return b.f.Qualify(b.self, b.l.ApplyImportIn(b.s.u, ref.PkgPath), acName(ref.Name))
}

// goRef returns the API type expression of ref.
func (b *builder) goRef(ref *model.TypeRef) string {
	switch ref.Kind {
	case model.RefBuiltin:
		return ref.Name
	case model.RefNamed:
		return b.f.Import(ref.PkgPath) + "." + ref.Name
	case model.RefPointer:
		return "*" + b.goRef(ref.Elem)
	case model.RefSlice:
		return "[]" + b.goRef(ref.Elem)
	case model.RefMap:
		return "map[" + b.goRef(ref.Key) + "]" + b.goRef(ref.Elem)
	}
	return "interface{}"
}

// elemType is the type of a slice element or map value in an apply
// configuration: selected structs become their apply configuration.
func (b *builder) elemType(ref *model.TypeRef) string {
	switch ref.Kind {
	case model.RefNamed:
		if b.s.has(ref) {
			return b.acRef(ref)
		}
		return b.goRef(ref)
	case model.RefPointer:
		return b.elemType(ref.Elem)
	case model.RefSlice:
		return "[]" + b.elemType(ref.Elem)
	case model.RefMap:
		return "map[" + b.goRef(ref.Key) + "]" + b.elemType(ref.Elem)
	}
	return b.goRef(ref)
}

// setterKind is how a With function stores its argument.
type setterKind int

const (
	setValue   setterKind = iota // field *T, With(value T)
	setConfig                    // field *TApplyConfiguration, With(value *TApplyConfiguration)
	setSlice                     // field []E, With(values ...E)
	setConfigs                   // field []EApplyConfiguration, With(values ...*EApplyConfiguration)
	setMap                       // field map[K]V, With(entries map[K]V)
)

type fieldShape struct {
	kind      setterKind
	fieldType string
	argType   string
}

func (b *builder) shape(ref *model.TypeRef) fieldShape {
	for ref.Kind == model.RefPointer {
		ref = ref.Elem
	}
	switch ref.Kind {
	case model.RefSlice:
		if ref.Elem.Kind == model.RefNamed && b.s.has(ref.Elem) {
			ac := b.acRef(ref.Elem)
			return fieldShape{kind: setConfigs, fieldType: "[]" + ac, argType: "*" + ac}
		}
		e := b.elemType(ref.Elem)
		return fieldShape{kind: setSlice, fieldType: "[]" + e, argType: e}
	case model.RefMap:
		m := "map[" + b.goRef(ref.Key) + "]" + b.elemType(ref.Elem)
		return fieldShape{kind: setMap, fieldType: m, argType: m}
	case model.RefNamed:
		if b.s.has(ref) {
			ac := b.acRef(ref)
			return fieldShape{kind: setConfig, fieldType: "*" + ac, argType: "*" + ac}
		}
	}
	g := b.goRef(ref)
	return fieldShape{kind: setValue, fieldType: "*" + g, argType: g}
}

// embeddedInfo describes an embedded selected struct.
type embeddedInfo struct {
	field   *model.Field
	t       *model.Type
	name    string // the embedded field's name in the apply configuration
	pointer bool   // embedded as a pointer (has its own JSON name)
}

func (b *builder) embedded(f *model.Field) *embeddedInfo {
	if !f.Embedded {
		return nil
	}
	ref := f.Type
	if ref.Kind == model.RefPointer {
		ref = ref.Elem
	}
	if ref.Kind != model.RefNamed || !b.s.has(ref) {
		return nil
	}
	return &embeddedInfo{field: f, t: b.s.u.Lookup(ref), name: acName(ref.Name), pointer: f.JSONName != ""}
}

func (b *builder) write() error {
	t, f := b.t, b.f
	name := acName(t.Name)
	r := b.s.resources[t]
	var typeMeta, objectMeta bool
	var embeds []*embeddedInfo

	f.Printf("// %s is the apply configuration of %s: every field is optional and\n// only set fields are sent to the server.\n", name, t.Name)
	f.Printf("type %s struct {\n", name)
	for _, fld := range fields(t) {
		if e := b.embedded(fld); e != nil {
			embeds = append(embeds, e)
			ac := b.acRef(e.t.Ref())
			if e.pointer {
				f.Printf("\t*%s `json:\"%s,omitempty\"`\n", ac, fld.JSONName)
			} else {
				f.Printf("\t%s `json:\"\"`\n", ac)
			}
			if e.t.Package.Path == metaV1Path && e.t.Name == "TypeMeta" {
				typeMeta = true
			}
			if e.t.Package.Path == metaV1Path && e.t.Name == "ObjectMeta" {
				objectMeta = true
			}
			continue
		}
		sh := b.shape(fld.Type)
		f.Printf("\t%s %s `json:\"%s,omitempty\"`\n", fld.Name, sh.fieldType, jsonName(fld))
	}
	f.Printf("}\n\n")

	if err := b.constructors(r, typeMeta, objectMeta); err != nil {
		return err
	}
	if typeMeta {
		f.Printf("// IsApplyConfiguration marks %s as an apply configuration.\nfunc (b %s) IsApplyConfiguration() {}\n\n", name, name)
	}
	for _, fld := range fields(t) {
		if e := b.embedded(fld); e != nil {
			b.promote(e, []*embeddedInfo{e})
			if e.pointer {
				f.Printf("// ensure%sExists allocates the embedded %s on first use.\n", e.name, e.name)
				f.Printf("func (b *%s) ensure%sExists() {\n\tif b.%s == nil {\n\t\tb.%s = &%s{}\n\t}\n}\n\n", name, e.name, e.name, e.name, b.acRef(e.t.Ref()))
			}
			continue
		}
		b.setter(fld, nil)
	}
	if typeMeta {
		f.Printf("// GetKind returns the kind set on the configuration, if any.\nfunc (b *%s) GetKind() *string {\n\treturn b.TypeMetaApplyConfiguration.Kind\n}\n\n", name)
		f.Printf("// GetAPIVersion returns the API version set on the configuration, if any.\nfunc (b *%s) GetAPIVersion() *string {\n\treturn b.TypeMetaApplyConfiguration.APIVersion\n}\n\n", name)
	}
	if t.Package.Path == metaV1Path && t.Name == "TypeMeta" {
		f.Printf("// GetKind returns the kind, if set.\nfunc (b *%s) GetKind() *string {\n\treturn b.Kind\n}\n\n", name)
		f.Printf("// GetAPIVersion returns the API version, if set.\nfunc (b *%s) GetAPIVersion() *string {\n\treturn b.APIVersion\n}\n\n", name)
	}
	if t.Package.Path == metaV1Path && t.Name == "ObjectMeta" {
		f.Printf("// GetName returns the name, if set.\nfunc (b *%s) GetName() *string {\n\treturn b.Name\n}\n\n", name)
		f.Printf("// GetNamespace returns the namespace, if set.\nfunc (b *%s) GetNamespace() *string {\n\treturn b.Namespace\n}\n\n", name)
	}
	if objectMeta {
		f.Printf("// GetName returns the object name set on the configuration, if any.\nfunc (b *%s) GetName() *string {\n\tb.ensureObjectMetaApplyConfigurationExists()\n\treturn b.ObjectMetaApplyConfiguration.Name\n}\n\n", name)
		f.Printf("// GetNamespace returns the namespace set on the configuration, if any.\nfunc (b *%s) GetNamespace() *string {\n\tb.ensureObjectMetaApplyConfigurationExists()\n\treturn b.ObjectMetaApplyConfiguration.Namespace\n}\n\n", name)
	}
	return nil
}

func jsonName(f *model.Field) string {
	if f.JSONName != "" {
		return f.JSONName
	}
	return f.Name
}

// promote writes With functions for the fields of an embedded struct,
// descending into structs it embeds in turn; path is the chain of embedded
// structs from the receiver.
func (b *builder) promote(e *embeddedInfo, path []*embeddedInfo) {
	for _, inner := range fields(e.t) {
		if ie := b.embedded(inner); ie != nil {
			if !ie.pointer {
				b.promote(ie, append(append([]*embeddedInfo(nil), path...), ie))
			}
			continue
		}
		b.setter(inner, path)
	}
}

// setter writes the With function of fld; via is the chain of embedded
// structs the field is promoted through, if any.
func (b *builder) setter(fld *model.Field, via []*embeddedInfo) {
	name := acName(b.t.Name)
	sh := b.shape(fld.Type)
	target := "b."
	ensure := ""
	for _, e := range via {
		target += e.name + "."
	}
	target += fld.Name
	if len(via) > 0 && via[0].pointer {
		ensure = "\tb.ensure" + via[0].name + "Exists()\n"
	}
	f := b.f
	switch sh.kind {
	case setValue:
		f.Printf("// With%s sets %s and returns the receiver for chaining.\n", fld.Name, fld.Name)
		f.Printf("func (b *%s) With%s(value %s) *%s {\n%s\t%s = &value\n\treturn b\n}\n\n", name, fld.Name, sh.argType, name, ensure, target)
	case setConfig:
		f.Printf("// With%s sets %s and returns the receiver for chaining.\n", fld.Name, fld.Name)
		f.Printf("func (b *%s) With%s(value %s) *%s {\n%s\t%s = value\n\treturn b\n}\n\n", name, fld.Name, sh.argType, name, ensure, target)
	case setSlice:
		f.Printf("// With%s appends values to %s and returns the receiver for chaining.\n", fld.Name, fld.Name)
		f.Printf("func (b *%s) With%s(values ...%s) *%s {\n%s\t%s = append(%s, values...)\n\treturn b\n}\n\n", name, fld.Name, sh.argType, name, ensure, target, target)
	case setConfigs:
		f.Printf("// With%s appends values to %s and returns the receiver for chaining.\n// A nil value panics.\n", fld.Name, fld.Name)
		f.Printf("func (b *%s) With%s(values ...%s) *%s {\n%s\tfor _, v := range values {\n\t\tif v == nil {\n\t\t\tpanic(\"With%s: nil value\")\n\t\t}\n\t\t%s = append(%s, *v)\n\t}\n\treturn b\n}\n\n", name, fld.Name, sh.argType, name, ensure, fld.Name, target, target)
	case setMap:
		f.Printf("// With%s copies entries into %s, replacing existing keys, and returns\n// the receiver for chaining.\n", fld.Name, fld.Name)
		f.Printf("func (b *%s) With%s(entries %s) *%s {\n%s\tif %s == nil && len(entries) > 0 {\n\t\t%s = make(%s, len(entries))\n\t}\n\tfor k, v := range entries {\n\t\t%s[k] = v\n\t}\n\treturn b\n}\n\n", name, fld.Name, sh.argType, name, ensure, target, target, sh.fieldType, target)
	}
}

// apiVersion returns the apiVersion string of a group version package.
func (b *builder) apiVersion() string {
	gv := b.s.inputs[b.t.Package.Path]
	if gv == nil || gv.Group.Name == "" {
		return gv.Version
	}
	return gv.Group.Name + "/" + gv.Version
}

// constructors writes the function that starts a configuration and, for
// resources, the Extract functions.
func (b *builder) constructors(r *model.Resource, typeMeta, objectMeta bool) error {
	t, f := b.t, b.f
	name := acName(t.Name)
	setKind := ""
	if typeMeta {
		setKind = fmt.Sprintf("\tb.WithKind(%q)\n\tb.WithAPIVersion(%q)\n", t.Name, b.apiVersion())
	}
	if r == nil || !objectMeta {
		f.Printf("// %s returns an empty %s ready for With calls.\n", t.Name, name)
		f.Printf("func %s() *%s {\n\tb := &%s{}\n%s\treturn b\n}\n\n", t.Name, name, name, setKind)
		return nil
	}
	if r.Namespaced {
		f.Printf("// %s starts the apply configuration of the %s called name in namespace.\n", t.Name, t.Name)
		f.Printf("func %s(name, namespace string) *%s {\n\tb := &%s{}\n\tb.WithName(name)\n\tb.WithNamespace(namespace)\n%s\treturn b\n}\n\n", t.Name, name, name, setKind)
	} else {
		f.Printf("// %s starts the apply configuration of the %s called name.\n", t.Name, t.Name)
		f.Printf("func %s(name string) *%s {\n\tb := &%s{}\n\tb.WithName(name)\n%s\treturn b\n}\n\n", t.Name, name, name, setKind)
	}
	api := b.f.Import(t.Package.Path) + "." + t.Name
	param := safeParam(model.LowerFirst(t.Name))
	mf := f.Import("k8s.io/apimachinery/pkg/util/managedfields")
	internal := f.Import(b.l.ApplyInternalImport())
	ns := ""
	if r.Namespaced {
		ns = fmt.Sprintf("\tb.WithNamespace(%s.Namespace)\n", param)
	}
	f.Printf(`// Extract%[1]sFrom returns the fields of %[2]s that fieldManager owns
// through subresource ("" for the main resource) as an apply
// configuration, with name, namespace, kind and apiVersion set. Applying
// the result unchanged is a no-op for that manager.
func Extract%[1]sFrom(%[2]s *%[3]s, fieldManager string, subresource string) (*%[4]s, error) {
	b := &%[4]s{}
	if err := %[5]s.ExtractInto(%[2]s, %[6]s.Parser().Type(%[7]q), fieldManager, b, subresource); err != nil {
		return nil, err
	}
	b.WithName(%[2]s.Name)
%[8]s%[9]s	return b, nil
}

// Extract%[1]s returns the fields of %[2]s that fieldManager owns as an
// apply configuration; see Extract%[1]sFrom.
func Extract%[1]s(%[2]s *%[3]s, fieldManager string) (*%[4]s, error) {
	return Extract%[1]sFrom(%[2]s, fieldManager, "")
}

`, t.Name, param, api, name, mf, internal, schemaName(t), ns, setKind)
	subresources := []string{}
	if r.HasStatus {
		subresources = append(subresources, "status")
	}
	for _, m := range r.Methods {
		if m.Subresource != "" && !contains(subresources, m.Subresource) {
			subresources = append(subresources, m.Subresource)
		}
	}
	for _, sub := range subresources {
		fn := "Extract" + t.Name + model.UpperFirst(sub)
		f.Printf("// %s is Extract%sFrom for the %s subresource.\nfunc %s(%s *%s, fieldManager string) (*%s, error) {\n\treturn Extract%sFrom(%s, fieldManager, %q)\n}\n\n", fn, t.Name, sub, fn, param, api, name, t.Name, param, sub)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func safeParam(s string) string {
	switch s {
	case "b", "fieldManager", "subresource", "err", "internal", "managedfields":
		return s + "Obj"
	case "type", "func", "map", "range", "select", "interface", "package", "default", "case", "go", "chan", "var", "const", "import", "return", "struct", "switch", "defer", "break", "continue", "for", "if", "else", "goto", "fallthrough":
		return s + "_"
	}
	return strings.TrimSpace(s)
}

// schemaName is the name of t in the structured-merge-diff schema.
func schemaName(t *model.Type) string {
	return t.Package.OpenAPIName() + "." + t.Name
}
