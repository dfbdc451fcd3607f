package protodecodegen

import (
	"fmt"

	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// sharedBytes lists bytes fields whose values repeat whole between
// objects (the managed-fields sets of pods of one owner): with a Sharing,
// the decoders return one shared copy of each.
var sharedBytes = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1.Raw": true,
}

// reusedPointers lists optional message fields outside specs decoded with
// wire.ReusedPointer: the managed-fields set of an entry is, from one
// version of an object to the next, the same bytes, while the entry's
// time changes with every update of the manager. With a reuse log the
// entry then points at the set decoded before (kept alive by the cached
// object) instead of hashing, comparing and copying its bytes again.
var reusedPointers = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.ManagedFieldsEntry.FieldsV1": true,
}

// wellKnown maps the types whose Unmarshal is written by hand to the
// runtime's decoder for them.
var wellKnown = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":      "Time",
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime": "MicroTime",
	"k8s.io/apimachinery/pkg/api/resource.Quantity":  "Quantity",
}

// quantityType is the qualified name of resource.Quantity.
const quantityType = "k8s.io/apimachinery/pkg/api/resource.Quantity"

// scalar is the kind of a non-message field value.
type scalar int

const (
	notScalar scalar = iota
	scalarString
	scalarBool
	scalarInt
	scalarBytes
)

// scalarOf resolves ref through named non-struct types to a builtin.
func (g *generator) scalarOf(ref *model.TypeRef) scalar {
	for i := 0; i < 8 && ref != nil; i++ {
		switch ref.Kind {
		case model.RefBuiltin:
			switch ref.Name {
			case "string":
				return scalarString
			case "bool":
				return scalarBool
			case "int", "int32", "int64", "uint32", "uint64":
				return scalarInt
			}
			return notScalar
		case model.RefSlice:
			if e := ref.Elem; e.Kind == model.RefBuiltin && (e.Name == "byte" || e.Name == "uint8") {
				return scalarBytes
			}
			return notScalar
		case model.RefNamed:
			t := g.lookup(ref)
			if t == nil || t.Kind != model.KindOther || t.Methods["Unmarshal"] {
				return notScalar
			}
			ref = t.Underlying
		default:
			return notScalar
		}
	}
	return notScalar
}

// messageFunc returns the decode function of message type ref, or "".
func (g *generator) messageFunc(ref *model.TypeRef) string {
	t := g.lookup(ref)
	if t == nil {
		return ""
	}
	if fn, ok := wellKnown[t.Package.Path+"."+t.Name]; ok {
		return g.f.Import(g.opts.RuntimePath) + "." + fn
	}
	if t.Kind != model.KindStruct || !t.Methods["Unmarshal"] {
		return ""
	}
	g.enqueue(t)
	return funcName(t)
}

// call returns an expression of type error decoding the field just keyed
// into the pointer expression target of type *ref; ok is false when the
// field is not modelled. The wire type follows from the Go type as
// go-to-protobuf maps it: the wire types written in k8s.io/api's struct
// tags are not always those of the generated code (GRPCAction.Port says
// bytes and is a varint), so only the field numbers are taken from them.
func (g *generator) call(ref *model.TypeRef, tag protoTag, target string, intern bool) (string, bool) {
	wire := g.f.Import(g.opts.RuntimePath)
	if ref.Kind == model.RefNamed {
		if t := g.lookup(ref); t != nil && t.Kind == model.KindOther && !t.Methods["Unmarshal"] && t.Underlying != nil &&
			(t.Underlying.Kind == model.RefMap || t.Underlying.Kind == model.RefSlice) && g.scalarOf(ref) == notScalar {
			// A named map or slice: decoded as its underlying type; the
			// generic runtime functions accept the named type.
			ref = t.Underlying
		}
	}
	switch s := g.scalarOf(ref); {
	case s == scalarString:
		if intern {
			return fmt.Sprintf("%s.SetString(&r, typ, %s)", wire, target), true
		}
		return fmt.Sprintf("%s.SetUniqueString(&r, typ, %s)", wire, target), true
	case s == scalarBool:
		return fmt.Sprintf("%s.SetBool(&r, typ, %s)", wire, target), true
	case s == scalarInt:
		return fmt.Sprintf("%s.SetInt(&r, typ, %s)", wire, target), true
	case s == scalarBytes:
		return fmt.Sprintf("%s.SetBytes(&r, typ, %s)", wire, target), true
	case s != notScalar:
		return "", false
	}
	switch ref.Kind {
	case model.RefNamed:
		if fn := g.messageFunc(ref); fn != "" {
			return fmt.Sprintf("%s.Embedded(&r, typ, %s, %s)", wire, target, fn), true
		}
	case model.RefPointer:
		switch s := g.scalarOf(ref.Elem); {
		case s == scalarString:
			return fmt.Sprintf("%s.SetStringPtr(&r, typ, %s)", wire, target), true
		case s == scalarBool:
			return fmt.Sprintf("%s.SetBoolPtr(&r, typ, %s)", wire, target), true
		case s == scalarInt:
			return fmt.Sprintf("%s.SetIntPtr(&r, typ, %s)", wire, target), true
		case s != notScalar || ref.Elem.Kind != model.RefNamed:
			return "", false
		}
		if fn := g.messageFunc(ref.Elem); fn != "" {
			return fmt.Sprintf("%s.Pointer(&r, typ, %s, %s)", wire, target, fn), true
		}
	case model.RefSlice:
		switch s := g.scalarOf(ref.Elem); {
		case s == scalarString:
			return fmt.Sprintf("%s.AppendString(&r, typ, %d, %s)", wire, tag.num, target), true
		case s == scalarInt:
			return fmt.Sprintf("%s.AppendInts(&r, typ, %s)", wire, target), true
		case s != notScalar || ref.Elem.Kind != model.RefNamed:
			return "", false
		}
		if fn := g.messageFunc(ref.Elem); fn != "" {
			return fmt.Sprintf("%s.AppendMessage(&r, typ, %d, %s, %s)", wire, tag.num, target, fn), true
		}
	case model.RefMap:
		if g.scalarOf(ref.Key) != scalarString {
			return "", false
		}
		switch g.scalarOf(ref.Elem) {
		case scalarString:
			return fmt.Sprintf("%s.StringMap(&r, typ, %d, %s)", wire, tag.num, target), true
		case scalarBytes:
			return fmt.Sprintf("%s.BytesMap(&r, typ, %d, %s)", wire, tag.num, target), true
		}
		if ref.Elem.Kind != model.RefNamed || g.scalarOf(ref.Elem) != notScalar {
			return "", false
		}
		if fn := g.messageFunc(ref.Elem); fn != "" {
			if t := g.lookup(ref.Elem); t != nil && t.Package.Path+"."+t.Name == quantityType {
				// Maps of quantities (resource lists) repeat whole
				// between objects: shared with a Sharing.
				return fmt.Sprintf("%s.QuantityMap(&r, typ, %d, %s)", wire, tag.num, target), true
			}
			return fmt.Sprintf("%s.MessageMap(&r, typ, %d, %s, %s)", wire, tag.num, target, fn), true
		}
	}
	return "", false
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
