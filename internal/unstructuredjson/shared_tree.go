package unstructuredjson

import "github.com/kubeclient/client-go/internal/jsonscan"

// sharedTree decodes the value at d.i, the value of a fieldsV1 member, at
// nesting level depth, with d.share: an object decoded before from the
// same bytes is returned as it is. Only trees of nothing but objects are
// kept for others: a Sharer walking one (see intern.Sharer) then never
// writes into it, as it rewrites only string values.
//
// The object's end is found without checking its syntax: bytes that match
// a kept tree's are the bytes that tree was decoded from, whole and well
// formed; a tree is kept only when the decoder, which checks, ended the
// object where the scanner did.
func (d *decoder) sharedTree(depth int) (any, bool) {
	d.skipSpace()
	start := d.i
	if start >= len(d.data) || d.data[start] != '{' {
		return d.value(depth, true)
	}
	var s jsonscan.Scanner
	n, closed := s.Scan(d.data[start:])
	if !closed {
		return d.value(depth, true)
	}
	end := start + n
	raw := d.data[start:end]
	if held, ok := d.share.Value(raw); ok {
		if tree, ok := held.(map[string]any); ok {
			d.i = end
			return tree, true
		}
	}
	v, ok := d.value(depth, true)
	if ok && d.i == end && objectsOnly(v, maxSharedTreeDepth) {
		d.share.KeepValue(raw, v)
	}
	return v, ok
}

// maxSharedTreeDepth bounds where a shared tree is found and how deep it
// nests, so that one found is within maxDepth wherever it is used:
// managed-fields trees start at level 5 and nest a few levels.
const maxSharedTreeDepth = 64

// objectsOnly reports whether v is an object whose members are all
// objects of the same kind, none named fieldsV1, nested at most levels
// deep.
func objectsOnly(v any, levels int) bool {
	m, ok := v.(map[string]any)
	if !ok || levels == 0 {
		return false
	}
	for k, x := range m {
		if k == "fieldsV1" || !objectsOnly(x, levels-1) {
			return false
		}
	}
	return true
}
