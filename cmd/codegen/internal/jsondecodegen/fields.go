package jsondecodegen

import (
	"reflect"
	"sort"
	"strings"
	"unicode"

	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// jsonField is one member of a struct's JSON object after encoding/json's
// promotion rules: path is the chain of Go fields from the outer struct,
// embedded structs first.
type jsonField struct {
	name   string
	path   []*model.Field
	tagged bool
}

// fieldsOf returns the JSON fields of struct t, resolved as encoding/json's
// typeFields does: embedded untagged structs are flattened breadth first,
// and of several fields with one name the shallowest wins, a tagged one
// beating untagged ones at the same depth; a tie drops the name.
func (g *generator) fieldsOf(t *model.Type) []jsonField {
	type level struct {
		typ  *model.Type
		path []*model.Field
	}
	var all []jsonField
	visited := map[*model.Type]bool{}
	current := []level{{typ: t}}
	for len(current) > 0 {
		var next []level
		for _, lv := range current {
			if visited[lv.typ] {
				continue
			}
			visited[lv.typ] = true
			for _, f := range lv.typ.Fields {
				tag, hasTag := reflect.StructTag(f.Tag).Lookup("json")
				if tag == "-" {
					continue
				}
				name := ""
				if hasTag {
					name, _, _ = strings.Cut(tag, ",")
				}
				path := append(append([]*model.Field(nil), lv.path...), f)
				if f.Embedded && name == "" {
					if et := g.embeddedStruct(f.Type); et != nil {
						next = append(next, level{typ: et, path: path})
						continue
					}
				}
				tagged := name != ""
				if !tagged {
					name = f.Name
				}
				all = append(all, jsonField{name: name, path: path, tagged: tagged})
			}
		}
		current = next
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if len(a.path) != len(b.path) {
			return len(a.path) < len(b.path)
		}
		return a.tagged && !b.tagged
	})
	var out []jsonField
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		group := all[i:j]
		if len(group) == 1 || len(group[0].path) < len(group[1].path) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	return out
}

// embeddedStruct returns the struct type an embedded field of type ref
// (possibly a pointer) promotes, or nil.
func (g *generator) embeddedStruct(ref *model.TypeRef) *model.Type {
	if ref.Kind == model.RefPointer {
		ref = ref.Elem
	}
	t := g.lookup(ref)
	if t == nil || t.Kind != model.KindStruct {
		return nil
	}
	return t
}

// hasMethod reports whether t's method set (pointer receivers included)
// has name, declared or promoted from an embedded field. unknown is true
// when an embedded type could not be resolved.
func (g *generator) hasMethod(t *model.Type, name string, depth int) (has, unknown bool) {
	if t.Methods[name] {
		return true, false
	}
	if depth > 8 {
		return false, true
	}
	for _, f := range t.Fields {
		if !f.Embedded {
			continue
		}
		ref := f.Type
		if ref.Kind == model.RefPointer {
			ref = ref.Elem
		}
		et := g.lookup(ref)
		if et == nil {
			return false, true
		}
		if h, u := g.hasMethod(et, name, depth+1); h || u {
			return h, u
		}
	}
	return false, false
}

// lookup resolves a named reference, following aliases; nil when the type
// is not a parsed named type.
func (g *generator) lookup(ref *model.TypeRef) *model.Type {
	for i := 0; i < 8 && ref != nil && ref.Kind == model.RefNamed; i++ {
		p := g.u.Packages[ref.PkgPath]
		if p == nil {
			return nil
		}
		t := p.Types[ref.Name]
		if t == nil {
			return nil
		}
		if !t.Alias {
			return t
		}
		ref = t.Underlying
	}
	return nil
}

// unusualTags reports whether t or a struct it embeds has a field with the
// ",string" option or a json name encoding/json rejects (and so replaces
// by the Go name): rules the generated decoders do not implement.
func (g *generator) unusualTags(t *model.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	for _, f := range t.Fields {
		tag, ok := reflect.StructTag(f.Tag).Lookup("json")
		if !ok {
			tag = ""
		}
		name, opts, _ := strings.Cut(tag, ",")
		for _, o := range strings.Split(opts, ",") {
			if o == "string" {
				return true
			}
		}
		if !validTagName(name) {
			return true
		}
		if f.Embedded && name == "" {
			if et := g.embeddedStruct(f.Type); et != nil && g.unusualTags(et, depth+1) {
				return true
			}
		}
	}
	return false
}

// validTagName is encoding/json's test for a usable json tag name.
func validTagName(s string) bool {
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
