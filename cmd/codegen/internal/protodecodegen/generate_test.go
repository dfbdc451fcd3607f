package protodecodegen

import (
	"strings"
	"testing"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// universe builds a one-package universe "example.com/api/v1" with the
// given types.
func universe(types ...*model.Type) *model.Universe {
	p := &model.Package{Path: "example.com/api/v1", Name: "v1", Types: map[string]*model.Type{}}
	for _, t := range types {
		t.Package = p
		p.Types[t.Name] = t
		p.Order = append(p.Order, t.Name)
	}
	return &model.Universe{Packages: map[string]*model.Package{p.Path: p}}
}

func named(name string) *model.TypeRef {
	return &model.TypeRef{Kind: model.RefNamed, PkgPath: "example.com/api/v1", Name: name}
}

func builtin(name string) *model.TypeRef { return &model.TypeRef{Kind: model.RefBuiltin, Name: name} }

func ptr(ref *model.TypeRef) *model.TypeRef { return &model.TypeRef{Kind: model.RefPointer, Elem: ref} }

func slice(ref *model.TypeRef) *model.TypeRef { return &model.TypeRef{Kind: model.RefSlice, Elem: ref} }

func mapOf(k, v *model.TypeRef) *model.TypeRef {
	return &model.TypeRef{Kind: model.RefMap, Key: k, Elem: v}
}

func message(name string) *model.Type {
	return &model.Type{Name: name, Kind: model.KindStruct, Methods: map[string]bool{"Unmarshal": true}}
}

// TestGeneratedCalls checks the runtime call chosen for each kind of
// field; wire types follow the Go type, whatever the tag says.
func TestGeneratedCalls(t *testing.T) {
	inner := message("Inner")
	mode := &model.Type{Name: "Mode", Kind: model.KindOther, Underlying: builtin("string")}
	list := &model.Type{Name: "List", Kind: model.KindOther, Underlying: mapOf(builtin("string"), named("Inner"))}
	u := universe(inner, mode, list)
	tests := []struct {
		ref  *model.TypeRef
		want string
	}{
		{builtin("string"), "w.SetString(&r, typ, &v.F)"},
		{named("Mode"), "w.SetString(&r, typ, &v.F)"},
		{builtin("int32"), "w.SetInt(&r, typ, &v.F)"},
		{builtin("bool"), "w.SetBool(&r, typ, &v.F)"},
		{slice(builtin("byte")), "w.SetBytes(&r, typ, &v.F)"},
		{ptr(builtin("int64")), "w.SetIntPtr(&r, typ, &v.F)"},
		{ptr(builtin("bool")), "w.SetBoolPtr(&r, typ, &v.F)"},
		{ptr(named("Mode")), "w.SetStringPtr(&r, typ, &v.F)"},
		{named("Inner"), "w.Embedded(&r, typ, &v.F, decodeApiv1Inner)"},
		{ptr(named("Inner")), "w.Pointer(&r, typ, &v.F, decodeApiv1Inner)"},
		{slice(named("Inner")), "w.AppendMessage(&r, typ, 7, &v.F, decodeApiv1Inner)"},
		{slice(builtin("string")), "w.AppendString(&r, typ, 7, &v.F)"},
		{slice(builtin("int32")), "w.AppendInts(&r, typ, &v.F)"},
		{mapOf(builtin("string"), builtin("string")), "w.StringMap(&r, typ, 7, &v.F)"},
		{mapOf(builtin("string"), slice(builtin("byte"))), "w.BytesMap(&r, typ, 7, &v.F)"},
		{named("List"), "w.MessageMap(&r, typ, 7, &v.F, decodeApiv1Inner)"},
		{builtin("float64"), ""},
		{slice(slice(builtin("string"))), ""},
		{mapOf(builtin("int32"), builtin("string")), ""},
		{&model.TypeRef{Kind: model.RefNamed, PkgPath: "example.com/unparsed", Name: "T"}, ""},
	}
	for _, tt := range tests {
		g := &generator{u: u, opts: Options{RuntimePath: "example.com/w"}, queued: map[*model.Type]bool{}, f: gofile.New("x")}
		got, ok := g.call(tt.ref, protoTag{num: 7}, "&v.F", true)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.ref, got, tt.want)
		}
	}
}

// TestUnmodelledMessageDecodesItself checks that a message with a field
// the generator does not model is decoded by its own Unmarshal, and that
// untagged fields are ignored.
func TestUnmodelledMessageDecodesItself(t *testing.T) {
	odd := message("Odd")
	odd.Fields = []*model.Field{
		{Name: "Ratio", Type: builtin("float64"), Tag: `protobuf:"fixed64,1,opt,name=ratio"`},
	}
	plain := message("Plain")
	plain.Fields = []*model.Field{
		{Name: "Name", Type: builtin("string"), Tag: `protobuf:"bytes,1,opt,name=name"`},
		{Name: "Cache", Type: builtin("float64")},
	}
	u := universe(odd, plain)
	for _, tt := range []struct {
		typ       *model.Type
		want, not string
	}{
		{odd, "return v.Unmarshal(r.Message())", "switch num"},
		{plain, "case 1:\n\t\t\terr = wire.SetString(&r, typ, &v.Name)", "v.Unmarshal"},
	} {
		g := &generator{u: u, opts: Options{RuntimePath: "example.com/wire", Package: "internal/x"}, queued: map[*model.Type]bool{}, files: map[string]*gofile.File{}}
		g.messageDecoder(tt.typ)
		out := gofile.NewOutput()
		if err := out.Add("internal/x", "x.go", g.files["example.com/api/v1"]); err != nil {
			t.Fatal(err)
		}
		src := string(out.Content(out.Paths()[0]))
		if !strings.Contains(src, tt.want) || strings.Contains(src, tt.not) {
			t.Errorf("%s:\n%s", tt.typ.Name, src)
		}
	}
}
