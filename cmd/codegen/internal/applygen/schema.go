package applygen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Names of the two catch-all schema types every schema carries.
const (
	untypedAtomic  = "__untyped_atomic_"
	untypedDeduced = "__untyped_deduced_"
)

// deducedLeaves are self-marshalling types whose content is arbitrary JSON
// that apply should merge structurally.
var deducedLeaves = map[string]bool{
	"k8s.io/apimachinery/pkg/runtime.RawExtension":                   true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":                  true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.JSON":                      true,
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.Unstructured": true,
}

// atomicLeaves are self-marshalling types holding opaque content that apply
// replaces as a whole.
var atomicLeaves = map[string]bool{
	"k8s.io/apimachinery/pkg/runtime.RawExtension": true,
}

// schemaWriter renders the structured-merge-diff schema (its YAML form) of
// the selected types and the leaf types they use.
type schemaWriter struct {
	s      *selection
	b      strings.Builder
	leaves map[string]*model.Type
}

func buildSchema(s *selection) string {
	w := &schemaWriter{s: s, leaves: map[string]*model.Type{}}
	var types []*model.Type
	for t := range s.types {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool { return schemaName(types[i]) < schemaName(types[j]) })
	w.b.WriteString("types:\n")
	for _, t := range types {
		w.structDef(t)
	}
	// Structs without an apply configuration (empty ones, or those of
	// packages that are not inputs) still need a full definition; defining
	// them can reach further leaves, so repeat until nothing is new.
	done := map[string]bool{}
	for {
		var pending []string
		for n, t := range w.leaves {
			if !done[n] && t.Kind == model.KindStruct && !t.CustomJSON {
				pending = append(pending, n)
			}
		}
		if len(pending) == 0 {
			break
		}
		sort.Strings(pending)
		for _, n := range pending {
			done[n] = true
			w.structDef(w.leaves[n])
		}
	}
	var leafNames []string
	for n := range w.leaves {
		if !done[n] {
			leafNames = append(leafNames, n)
		}
	}
	sort.Strings(leafNames)
	for _, n := range leafNames {
		t := w.leaves[n]
		if deducedLeaves[t.Package.Path+"."+t.Name] {
			fmt.Fprintf(&w.b, "- name: %s\n", n)
			w.deducedBody("  ")
		} else {
			fmt.Fprintf(&w.b, "- name: %s\n  scalar: untyped\n", n)
		}
	}
	fmt.Fprintf(&w.b, "- name: %s\n  scalar: untyped\n  list:\n    elementType:\n      namedType: %s\n    elementRelationship: atomic\n  map:\n    elementType:\n      namedType: %s\n    elementRelationship: atomic\n", untypedAtomic, untypedAtomic, untypedAtomic)
	fmt.Fprintf(&w.b, "- name: %s\n  scalar: untyped\n  list:\n    elementType:\n      namedType: %s\n    elementRelationship: atomic\n  map:\n    elementType:\n      namedType: %s\n    elementRelationship: separable\n", untypedDeduced, untypedAtomic, untypedDeduced)
	return w.b.String()
}

// deducedBody writes a map whose values may be anything, merged
// structurally.
func (w *schemaWriter) deducedBody(indent string) {
	fmt.Fprintf(&w.b, "%smap:\n%s  elementType:\n", indent, indent)
	in := indent + "    "
	fmt.Fprintf(&w.b, "%sscalar: untyped\n%slist:\n%s  elementType:\n%s    namedType: %s\n%s  elementRelationship: atomic\n", in, in, in, in, untypedAtomic, in)
	fmt.Fprintf(&w.b, "%smap:\n%s  elementType:\n%s    namedType: %s\n%s  elementRelationship: separable\n", in, in, in, untypedDeduced, in)
}

// schemaField is one field of a struct's schema after inlining embedded
// structs.
type schemaField struct {
	name string
	f    *model.Field
}

func (w *schemaWriter) collect(t *model.Type, out *[]schemaField) {
	// The schema describes every serialized field, including those apply
	// configurations leave out (managedFields): objects carry them.
	for _, f := range t.Fields {
		if f.JSONName == "-" {
			continue
		}
		if f.Embedded && f.JSONName == "" {
			ref := f.Type
			if ref.Kind == model.RefPointer {
				ref = ref.Elem
			}
			if inner := w.s.u.Lookup(ref); inner != nil && inner.Kind == model.KindStruct {
				w.collect(inner, out)
				continue
			}
		}
		*out = append(*out, schemaField{name: jsonName(f), f: f})
	}
}

func (w *schemaWriter) structDef(t *model.Type) {
	fmt.Fprintf(&w.b, "- name: %s\n  map:\n", schemaName(t))
	var fs []schemaField
	w.collect(t, &fs)
	if len(fs) == 0 {
		// An empty struct accepts anything, merged structurally.
		fmt.Fprintf(&w.b, "    elementType:\n      scalar: untyped\n      list:\n        elementType:\n          namedType: %s\n        elementRelationship: atomic\n      map:\n        elementType:\n          namedType: %s\n        elementRelationship: separable\n", untypedAtomic, untypedDeduced)
		return
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].name < fs[j].name })
	w.b.WriteString("    fields:\n")
	for _, sf := range fs {
		fmt.Fprintf(&w.b, "    - name: %s\n      type:\n", sf.name)
		w.typeBody(sf.f.Type, sf.f.Tags, "        ")
	}
	w.unions(t)
	switch t.Tags.Value("structType") {
	case "atomic":
		w.b.WriteString("    elementRelationship: atomic\n")
	case "granular":
		w.b.WriteString("    elementRelationship: separable\n")
	}
}

// unions writes the union of a struct tagged +union or holding a
// +unionDiscriminator field: its optional fields are the members, named in
// the discriminator by their Go names.
func (w *schemaWriter) unions(t *model.Type) {
	var disc *model.Field
	for _, f := range t.Fields {
		if f.Tags.Has("unionDiscriminator") {
			disc = f
		}
	}
	if disc == nil && !t.Tags.Has("union") {
		return
	}
	var members []*model.Field
	for _, f := range t.Fields {
		if f == disc || f.JSONName == "-" || f.Embedded {
			continue
		}
		if f.Tags.Has("optional") || f.Tags.Has("k8s:unionMember") {
			members = append(members, f)
		}
	}
	if len(members) == 0 {
		return
	}
	sort.Slice(members, func(i, j int) bool { return jsonName(members[i]) < jsonName(members[j]) })
	w.b.WriteString("    unions:\n")
	if disc != nil {
		fmt.Fprintf(&w.b, "    - discriminator: %s\n      fields:\n", jsonName(disc))
	} else {
		w.b.WriteString("    - fields:\n")
	}
	for _, m := range members {
		fmt.Fprintf(&w.b, "      - fieldName: %s\n        discriminatorValue: %s\n", jsonName(m), m.Name)
	}
}

// typeBody writes the schema of ref at indent, using the list and map
// markers of the field it belongs to.
func (w *schemaWriter) typeBody(ref *model.TypeRef, tags model.Tags, indent string) {
	for ref.Kind == model.RefPointer {
		ref = ref.Elem
	}
	switch ref.Kind {
	case model.RefBuiltin:
		fmt.Fprintf(&w.b, "%sscalar: %s\n", indent, scalarOf(ref.Name))
	case model.RefInterface:
		fmt.Fprintf(&w.b, "%snamedType: %s\n", indent, untypedAtomic)
	case model.RefSlice:
		if ref.Elem.Kind == model.RefBuiltin && (ref.Elem.Name == "byte" || ref.Elem.Name == "uint8") {
			fmt.Fprintf(&w.b, "%sscalar: string\n", indent)
			return
		}
		fmt.Fprintf(&w.b, "%slist:\n%s  elementType:\n", indent, indent)
		w.typeBody(ref.Elem, nil, indent+"    ")
		listType := tags.Value("listType")
		keys := tags["listMapKey"]
		if listType == "" && tags.Value("patchStrategy") != "" && strings.Contains(tags.Value("patchStrategy"), "merge") {
			if k := tags.Value("patchMergeKey"); k != "" {
				listType, keys = "map", []string{k}
			} else {
				listType = "set"
			}
		}
		switch listType {
		case "map":
			fmt.Fprintf(&w.b, "%s  elementRelationship: associative\n", indent)
			if len(keys) > 0 {
				fmt.Fprintf(&w.b, "%s  keys:\n", indent)
				for _, k := range keys {
					fmt.Fprintf(&w.b, "%s  - %s\n", indent, k)
				}
			}
		case "set":
			fmt.Fprintf(&w.b, "%s  elementRelationship: associative\n", indent)
		default:
			fmt.Fprintf(&w.b, "%s  elementRelationship: atomic\n", indent)
		}
	case model.RefMap:
		fmt.Fprintf(&w.b, "%smap:\n%s  elementType:\n", indent, indent)
		w.typeBody(ref.Elem, nil, indent+"    ")
		switch tags.Value("mapType") {
		case "atomic":
			fmt.Fprintf(&w.b, "%s  elementRelationship: atomic\n", indent)
		case "granular":
			fmt.Fprintf(&w.b, "%s  elementRelationship: separable\n", indent)
		}
	case model.RefNamed:
		t := w.s.u.Lookup(ref)
		switch {
		case t == nil:
			fmt.Fprintf(&w.b, "%snamedType: %s\n", indent, untypedDeduced)
		case atomicLeaves[t.Package.Path+"."+t.Name]:
			fmt.Fprintf(&w.b, "%snamedType: %s\n", indent, untypedAtomic)
		case t.Kind == model.KindStruct:
			if !w.s.types[t] {
				w.leaves[schemaName(t)] = t
			}
			fmt.Fprintf(&w.b, "%snamedType: %s\n", indent, schemaName(t))
			// A field may override how the struct merges.
			switch tags.Value("structType") {
			case "atomic":
				fmt.Fprintf(&w.b, "%selementRelationship: atomic\n", indent)
			case "granular":
				fmt.Fprintf(&w.b, "%selementRelationship: separable\n", indent)
			}
		default:
			// A named scalar, slice or map: describe what it is made of,
			// keeping the field's markers.
			merged := model.Tags{}
			for k, v := range t.Tags {
				merged[k] = v
			}
			for k, v := range tags {
				merged[k] = v
			}
			w.typeBody(t.Underlying, merged, indent)
		}
	}
}

func scalarOf(builtin string) string {
	switch builtin {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	}
	return "numeric"
}
