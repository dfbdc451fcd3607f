package unstructuredjson

import (
	"bytes"
	"errors"
	"sync"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/jsondecode/lex"
	"github.com/kubeclient/client-go/internal/jsonscan"
)

// errGiveUp is returned for every input Decode does not decode; the caller
// then decodes with the reference, which produces the error to report.
var errGiveUp = errors.New("unstructuredjson: input left to the reference decoder")

// maxDepth is encoding/json's nesting limit, which sigs.k8s.io/json keeps.
const maxDepth = jsonscan.MaxDepth

// TypeMeta is what encoding/json, matching member names without regard to
// case, finds for apiVersion and kind at the top level of a document, as
// apimachinery's JSON serializer reads them before decoding.
type TypeMeta struct {
	APIVersion, Kind string
	// Plain is false when finding them needs encoding/json itself: a
	// top-level member name with escapes or non-ASCII bytes, or a member
	// matching apiVersion or kind whose value is not a string or null.
	Plain bool
}

// Decode decodes the JSON object data into a new map as
// sigs.k8s.io/json's UnmarshalCaseSensitivePreserveInts decodes it into an
// empty map[string]interface{}: objects as map[string]interface{} (the last
// of duplicate names wins), arrays as []interface{}, integers that fit as
// int64, other numbers as float64, strings unescaped with invalid UTF-8 and
// unpaired surrogates replaced by U+FFFD. It also returns the document's
// TypeMeta. Any input that is not one well-formed object, or holds a
// number float64 cannot hold, fails with an error that says only that the
// reference decoder must be used.
func Decode(data []byte) (map[string]any, TypeMeta, error) {
	return decode(data, nil, false)
}

// DecodeSharing is Decode for an object nobody will write into (one going
// into an informer's cache): with share not nil, a managed-fields tree
// (the object value of a member named fieldsV1) that holds only objects is
// the tree decoded before from the same bytes, when there is one.
func DecodeSharing(data []byte, share *intern.DecodeSharing) (map[string]any, TypeMeta, error) {
	return decode(data, share, false)
}

// decode is DecodeSharing; checked says that data's syntax was checked
// before, so that its tokens need not be.
func decode(data []byte, share *intern.DecodeSharing, checked bool) (map[string]any, TypeMeta, error) {
	d := decoder{data: data, top: TypeMeta{Plain: true}, share: share, checked: checked}
	if bytes.Contains(data, secretKind) {
		// Perhaps a Secret, whose values must not enter process-wide
		// tables (see intern.IsSecret): nothing is interned or shared.
		d.plain, d.share = true, nil
	}
	if !fastpath.Interning.On() {
		d.plain = true
	}
	if p := pending.Get(); p != nil {
		d.pendingValues = p.(*pendingValues)
	} else {
		d.pendingValues = new(pendingValues)
	}
	defer d.release()
	d.skipSpace()
	if d.i >= len(d.data) || d.data[d.i] != '{' {
		return nil, TypeMeta{}, errGiveUp
	}
	obj, ok := d.object(1)
	if !ok {
		return nil, TypeMeta{}, errGiveUp
	}
	if d.skipSpace(); d.i != len(d.data) {
		return nil, TypeMeta{}, errGiveUp
	}
	return obj, d.top, nil
}

// secretKind is what a document that may be a Secret holds: the start of
// its kind, "Secret" or "SecretList", as a string literal.
var secretKind = []byte(`"Secret`)

// decoder reads data from offset i.
type decoder struct {
	data []byte
	i    int
	top  TypeMeta
	// share, when not nil, shares managed-fields trees (see sharedTree).
	share *intern.DecodeSharing
	// plain: strings are not interned.
	plain bool
	// checked: data's syntax was checked before (the object of a watch
	// event whose frame was checked, see wirecodec.TakeCheckedEventObject);
	// its tokens are read without checking them again.
	checked bool
	*pendingValues
}

// pendingValues holds what the decoder has read of the objects and arrays
// still open, innermost last: an object's map and an array's slice are
// made when they close, of their exact size, so that neither grows while
// it is filled. One decoder owns it from Decode's start to its end.
type pendingValues struct {
	members  []member
	elements []any
}

// member is a member of an open object.
type member struct {
	name  string
	value any
}

// pending keeps the pendingValues of finished decodes, empty, for the
// next ones.
var pending sync.Pool

// release gives the decoder's pendingValues back to pending, dropping
// what a failed decode left in them.
func (d *decoder) release() {
	p := d.pendingValues
	clear(p.members)
	clear(p.elements)
	p.members, p.elements = p.members[:0], p.elements[:0]
	d.pendingValues = nil
	pending.Put(p)
}

// skipSpace moves d.i past whitespace.
func (d *decoder) skipSpace() { d.i = jsonscan.SkipSpace(d.data, d.i) }

// value decodes the value at d.i, at nesting level depth when it is an
// object or array. A string is read through the process-wide table of
// boxed strings when shared is true, the value of a member whose values
// are not unique to an object.
func (d *decoder) value(depth int, shared bool) (any, bool) {
	d.skipSpace()
	if d.i >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '{':
		m, ok := d.object(depth)
		return m, ok
	case c == '[':
		a, ok := d.array(depth)
		return a, ok
	case c == '"':
		if shared && !d.plain {
			return d.sharedString()
		}
		s, ok := d.string()
		return s, ok
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	}
	return nil, false
}

func (d *decoder) literal(word string) bool {
	if len(d.data)-d.i < len(word) || string(d.data[d.i:d.i+len(word)]) != word {
		return false
	}
	d.i += len(word)
	return true
}

// object decodes the object opening at d.i; at depth 1 it also records the
// TypeMeta. Its members are read onto d.members, then moved into a map
// sized for them; of duplicate names the last, stored last, wins.
func (d *decoder) object(depth int) (map[string]any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	d.i++
	d.skipSpace()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return make(map[string]any), true
	}
	base := len(d.members)
	for {
		d.skipSpace()
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, false
		}
		nameStart := d.i
		name, ok := d.name()
		if !ok {
			return nil, false
		}
		rawName := d.data[nameStart+1 : d.i-1]
		d.skipSpace()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, false
		}
		d.i++
		var v any
		if d.share != nil && name == "fieldsV1" && depth < maxSharedTreeDepth {
			v, ok = d.sharedTree(depth + 1)
		} else {
			v, ok = d.value(depth+1, !intern.UniqueKey(name) && name != intern.LastAppliedAnnotation)
		}
		if !ok {
			return nil, false
		}
		d.members = append(d.members, member{name, v})
		if depth == 1 {
			d.recordTypeMeta(rawName, v)
		}
		d.skipSpace()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			members := d.members[base:]
			m := make(map[string]any, len(members))
			for _, mb := range members {
				m[mb.name] = mb.value
			}
			clear(members)
			d.members = d.members[:base]
			return m, true
		default:
			return nil, false
		}
	}
}

// recordTypeMeta notes a top-level member for TypeMeta.
func (d *decoder) recordTypeMeta(rawName []byte, v any) {
	var field *string
	switch {
	case !lex.ASCIIPlain(rawName):
		d.top.Plain = false
		return
	case lex.ASCIIEqualFold(rawName, "apiversion"):
		field = &d.top.APIVersion
	case lex.ASCIIEqualFold(rawName, "kind"):
		field = &d.top.Kind
	default:
		return
	}
	switch v := v.(type) {
	case nil:
	case string:
		*field = v
	default:
		d.top.Plain = false
	}
}

// array decodes the array opening at d.i. Its elements are read onto
// d.elements, then copied into a slice of their number.
func (d *decoder) array(depth int) ([]any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	d.i++
	d.skipSpace()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return make([]any, 0), true
	}
	base := len(d.elements)
	for {
		v, ok := d.value(depth+1, true)
		if !ok {
			return nil, false
		}
		d.elements = append(d.elements, v)
		d.skipSpace()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			elements := d.elements[base:]
			a := make([]any, len(elements))
			copy(a, elements)
			clear(elements)
			d.elements = d.elements[:base]
			return a, true
		default:
			return nil, false
		}
	}
}
