package jsondecodegen

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// universe builds a one-package universe "example.com/api/v1" with the
// given types.
func universe(types ...*model.Type) (*model.Universe, *model.Package) {
	p := &model.Package{Path: "example.com/api/v1", Name: "v1", Types: map[string]*model.Type{}}
	for _, t := range types {
		t.Package = p
		p.Types[t.Name] = t
		p.Order = append(p.Order, t.Name)
	}
	return &model.Universe{Packages: map[string]*model.Package{p.Path: p}}, p
}

func named(name string) *model.TypeRef {
	return &model.TypeRef{Kind: model.RefNamed, PkgPath: "example.com/api/v1", Name: name}
}

func builtin(name string) *model.TypeRef { return &model.TypeRef{Kind: model.RefBuiltin, Name: name} }

func field(name string, ref *model.TypeRef, tag string) *model.Field {
	return &model.Field{Name: name, Type: ref, Tag: tag}
}

func embedded(name string, ref *model.TypeRef, tag string) *model.Field {
	f := field(name, ref, tag)
	f.Embedded = true
	return f
}

// TestFieldsFollowEncodingJSONPromotion checks the JSON member names of a
// struct against encoding/json's rules: untagged embedded structs are
// flattened, shallower fields win, a tag breaks a tie at one depth, an
// untied conflict drops the name, "-" hides a field, untagged fields use
// the Go name, and an embedded struct with a name is one member.
func TestFieldsFollowEncodingJSONPromotion(t *testing.T) {
	inner := &model.Type{Name: "Inner", Kind: model.KindStruct, Fields: []*model.Field{
		field("Kind", builtin("string"), `json:"kind"`),
		field("Shadowed", builtin("string"), `json:"shadowed"`),
		field("TiedA", builtin("string"), `json:"tied"`),
		field("Both", builtin("string"), ``),
	}}
	other := &model.Type{Name: "Other", Kind: model.KindStruct, Fields: []*model.Field{
		field("TiedB", builtin("string"), `json:"tied"`),
		field("Y", builtin("string"), `json:"Both"`),
	}}
	outer := &model.Type{Name: "Outer", Kind: model.KindStruct, Fields: []*model.Field{
		embedded("Inner", named("Inner"), `json:",inline"`),
		embedded("Other", &model.TypeRef{Kind: model.RefPointer, Elem: named("Other")}, ``),
		field("Shadowed", builtin("int32"), `json:"shadowed"`),
		field("Hidden", builtin("string"), `json:"-"`),
		field("Dash", builtin("string"), `json:"-,"`),
		field("Plain", builtin("bool"), ``),
		embedded("Named", named("Inner"), `json:"named"`),
	}}
	u, _ := universe(inner, other, outer)
	g := &generator{u: u}
	var got []string
	for _, f := range g.fieldsOf(outer) {
		var path []string
		for _, p := range f.path {
			path = append(path, p.Name)
		}
		got = append(got, f.name+"="+strings.Join(path, "."))
	}
	want := []string{"-=Dash", "Both=Other.Y", "Plain=Plain", "kind=Inner.Kind", "named=Named", "shadowed=Shadowed"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields = %v\nwant     %v", got, want)
	}
}

// TestGeneratedCalls checks the runtime call chosen for each kind of field.
func TestGeneratedCalls(t *testing.T) {
	unmarshaler := &model.Type{Name: "Raw", Kind: model.KindStruct, Methods: map[string]bool{"UnmarshalJSON": true}}
	texter := &model.Type{Name: "Texty", Kind: model.KindOther, Underlying: builtin("string"), Methods: map[string]bool{"UnmarshalText": true}}
	name := &model.Type{Name: "Name", Kind: model.KindOther, Underlying: builtin("string")}
	item := &model.Type{Name: "Item", Kind: model.KindStruct}
	u, _ := universe(unmarshaler, texter, name, item)
	g := &generator{u: u, opts: Options{RuntimePath: "example.com/lex"}, queued: map[*model.Type]bool{}, f: gofile.New("x")}
	for _, c := range []struct {
		ref  *model.TypeRef
		want string
	}{
		{builtin("string"), "lex.String(l, &v.F)"},
		{builtin("int32"), "lex.Int(l, &v.F)"},
		{builtin("uint64"), "lex.Uint(l, &v.F)"},
		{builtin("float64"), "lex.Float64(l, &v.F)"},
		{named("Name"), "lex.String(l, &v.F)"},
		{named("Raw"), "lex.Unmarshal(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefPointer, Elem: named("Raw")}, "lex.PtrUnmarshal(l, &v.F)"},
		{named("Texty"), "lex.Fallback(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefInterface}, "lex.Fallback(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefSlice, Elem: builtin("byte")}, "lex.Bytes(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefSlice, Elem: named("Item")}, "lex.Slice(l, &v.F, decodeApiv1Item)"},
		{&model.TypeRef{Kind: model.RefMap, Key: named("Name"), Elem: builtin("string")}, "lex.StringMap(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefMap, Key: builtin("string"), Elem: builtin("int32")}, "lex.Map(l, &v.F, func(l *lex.Lexer, v *int32) error { return lex.Int(l, v) })"},
		{&model.TypeRef{Kind: model.RefMap, Key: builtin("int"), Elem: builtin("string")}, "lex.Fallback(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefMap, Key: named("Texty"), Elem: builtin("string")}, "lex.Fallback(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefPointer, Elem: &model.TypeRef{Kind: model.RefPointer, Elem: builtin("string")}}, "lex.Fallback(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefSlice, Elem: &model.TypeRef{Kind: model.RefInterface}}, "lex.Fallback(l, &v.F)"},
		{&model.TypeRef{Kind: model.RefNamed, PkgPath: "time", Name: "Duration"}, "lex.Fallback(l, &v.F)"},
	} {
		if got := g.call(c.ref, "&v.F", true); got != c.want {
			t.Errorf("call(%+v) = %s\nwant %s", c.ref, got, c.want)
		}
	}
	if got := g.call(builtin("string"), "&v.F", false); got != "lex.UniqueString(l, &v.F)" {
		t.Errorf("unique string field: %s", got)
	}
}

// TestUnusualTagsLeaveTheStructToTheReference checks that a struct with a
// ",string" field or a tag name encoding/json rejects is decoded whole by
// the reference decoder.
func TestUnusualTagsLeaveTheStructToTheReference(t *testing.T) {
	quoted := &model.Type{Name: "Quoted", Kind: model.KindStruct, Fields: []*model.Field{field("N", builtin("int64"), `json:"n,string"`)}}
	odd := &model.Type{Name: "Odd", Kind: model.KindStruct, Fields: []*model.Field{field("N", builtin("int64"), `json:"a\"b"`)}}
	outer := &model.Type{Name: "Outer", Kind: model.KindStruct, Fields: []*model.Field{embedded("Quoted", named("Quoted"), ``)}}
	plain := &model.Type{Name: "Plain", Kind: model.KindStruct, Fields: []*model.Field{field("N", builtin("int64"), `json:"n-1.x,omitempty"`)}}
	u, _ := universe(quoted, odd, outer, plain)
	for _, c := range []struct {
		t        *model.Type
		fallback bool
	}{{quoted, true}, {odd, true}, {outer, true}, {plain, false}} {
		g := &generator{u: u, opts: Options{RuntimePath: "example.com/lex", Package: "internal/x"}, queued: map[*model.Type]bool{}, files: map[string]*gofile.File{}}
		g.structDecoder(c.t)
		src, err := g.files["example.com/api/v1"].Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(src), "return lex.Fallback(l, v)"); got != c.fallback {
			t.Errorf("%s: whole-struct fallback %v, want %v\n%s", c.t.Name, got, c.fallback, src)
		}
	}
}
