package testing

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// patchObject applies a patch document of type pt to current and returns
// the result as a new object of the same type.
func patchObject(current runtime.Object, pt types.PatchType, patch []byte) (runtime.Object, error) {
	original, err := contentOf(current)
	if err != nil {
		return nil, err
	}
	original = runtime.DeepCopyJSON(original)
	var patched map[string]interface{}
	switch pt {
	case types.JSONPatchType:
		var ops []map[string]interface{}
		if err := utiljson.Unmarshal(patch, &ops); err != nil {
			return nil, fmt.Errorf("invalid JSON patch: %w", err)
		}
		doc, err := applyJSONPatch(original, ops)
		if err != nil {
			return nil, err
		}
		m, ok := doc.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("JSON patch turned the object into a %T", doc)
		}
		patched = m
	case types.MergePatchType:
		p, err := decodeObjectPatch(patch)
		if err != nil {
			return nil, err
		}
		m, ok := mergePatch(original, p).(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("merge patch must be a JSON object")
		}
		patched = m
	case types.StrategicMergePatchType, types.ApplyPatchType:
		p, err := decodeObjectPatch(patch)
		if err != nil {
			return nil, err
		}
		patched = strategicMerge(original, p, goTypeOf(current))
	default:
		return nil, fmt.Errorf("patch type %q is not supported", pt)
	}
	return objectLike(current, patched)
}

// strategicMergeObject merges the JSON form of a patch into current with
// strategic merge patch semantics.
func strategicMergeObject(current runtime.Object, patch map[string]interface{}) (runtime.Object, error) {
	original, err := contentOf(current)
	if err != nil {
		return nil, err
	}
	merged := strategicMerge(runtime.DeepCopyJSON(original), runtime.DeepCopyJSON(patch), goTypeOf(current))
	return objectLike(current, merged)
}

// objectLike builds an object of the same Go type as like from content.
func objectLike(like runtime.Object, content map[string]interface{}) (runtime.Object, error) {
	if _, ok := like.(runtime.Unstructured); ok {
		out := like.DeepCopyObject().(runtime.Unstructured)
		out.SetUnstructuredContent(content)
		return out, nil
	}
	out := reflect.New(reflect.TypeOf(like).Elem()).Interface().(runtime.Object)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content, out); err != nil {
		return nil, fmt.Errorf("patched object is not a valid %T: %w", like, err)
	}
	return out, nil
}

func decodeObjectPatch(patch []byte) (map[string]interface{}, error) {
	var p map[string]interface{}
	if err := utiljson.Unmarshal(patch, &p); err != nil {
		return nil, fmt.Errorf("invalid patch, expected a JSON object: %w", err)
	}
	return p, nil
}

// goTypeOf returns the struct type behind a typed object, or nil for
// unstructured ones (whose strategic merges fall back to merge semantics).
func goTypeOf(obj runtime.Object) reflect.Type {
	if _, ok := obj.(runtime.Unstructured); ok {
		return nil
	}
	if _, ok := obj.(*unstructured.Unstructured); ok {
		return nil
	}
	t := reflect.TypeOf(obj)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// mergePatch applies an RFC 7386 JSON merge patch.
func mergePatch(original, patch interface{}) interface{} {
	p, ok := patch.(map[string]interface{})
	if !ok {
		return patch
	}
	o, ok := original.(map[string]interface{})
	if !ok {
		o = map[string]interface{}{}
	}
	for k, v := range p {
		if v == nil {
			delete(o, k)
			continue
		}
		o[k] = mergePatch(o[k], v)
	}
	return o
}

// Directives of the strategic merge patch format.
const (
	directiveKey          = "$patch"
	retainKeysKey         = "$retainKeys"
	setElementOrderPrefix = "$setElementOrder/"
	deleteFromListPrefix  = "$deleteFromPrimitiveList/"
)

// strategicMerge merges patch into original following the strategic merge
// patch rules of Go type t: lists whose field is tagged
// patchStrategy:"merge" are merged (by patchMergeKey for lists of objects),
// other lists are replaced, null deletes, and the $patch, $retainKeys and
// $deleteFromPrimitiveList directives are honoured. A nil t merges maps and
// replaces lists, like a JSON merge patch.
func strategicMerge(original, patch map[string]interface{}, t reflect.Type) map[string]interface{} {
	switch patch[directiveKey] {
	case "replace":
		out := map[string]interface{}{}
		for k, v := range patch {
			if k != directiveKey {
				out[k] = v
			}
		}
		return out
	case "delete":
		return nil
	}
	if original == nil {
		original = map[string]interface{}{}
	}
	var retain []interface{}
	hasRetain := false
	for k, v := range patch {
		switch {
		case k == directiveKey || strings.HasPrefix(k, setElementOrderPrefix):
			continue
		case k == retainKeysKey:
			retain, _ = v.([]interface{})
			hasRetain = true
			continue
		case strings.HasPrefix(k, deleteFromListPrefix):
			field := strings.TrimPrefix(k, deleteFromListPrefix)
			if list, ok := original[field].([]interface{}); ok {
				original[field] = removeValues(list, v)
			}
			continue
		}
		if v == nil {
			delete(original, k)
			continue
		}
		ft, strategy, mergeKey := fieldOf(t, k)
		switch pv := v.(type) {
		case map[string]interface{}:
			ov, _ := original[k].(map[string]interface{})
			merged := strategicMerge(ov, pv, ft)
			if merged == nil {
				delete(original, k)
			} else {
				original[k] = merged
			}
		case []interface{}:
			ov, _ := original[k].([]interface{})
			if strings.Contains(strategy, "merge") {
				original[k] = mergeList(ov, pv, elemType(ft), mergeKey)
			} else {
				original[k] = stripDirectives(pv)
			}
		default:
			original[k] = v
		}
	}
	if hasRetain {
		keep := map[string]bool{}
		for _, k := range retain {
			if s, ok := k.(string); ok {
				keep[s] = true
			}
		}
		for k := range original {
			if !keep[k] {
				delete(original, k)
			}
		}
	}
	return original
}

// mergeList merges the patch list into the original list: by mergeKey for
// lists of objects, as a set union for lists of scalars.
func mergeList(original, patch []interface{}, elem reflect.Type, mergeKey string) []interface{} {
	out := append([]interface{}(nil), original...)
	if mergeKey == "" {
		for _, v := range patch {
			if !containsValue(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	for _, pv := range patch {
		pm, ok := pv.(map[string]interface{})
		if !ok {
			out = append(out, pv)
			continue
		}
		idx := -1
		for i, ov := range out {
			if om, ok := ov.(map[string]interface{}); ok && reflect.DeepEqual(om[mergeKey], pm[mergeKey]) {
				idx = i
				break
			}
		}
		switch {
		case pm[directiveKey] == "delete":
			if idx >= 0 {
				out = append(out[:idx], out[idx+1:]...)
			}
		case idx >= 0:
			om, _ := out[idx].(map[string]interface{})
			out[idx] = strategicMerge(om, pm, elem)
		default:
			out = append(out, strategicMerge(nil, pm, elem))
		}
	}
	return out
}

func stripDirectives(list []interface{}) []interface{} {
	out := make([]interface{}, 0, len(list))
	for _, v := range list {
		if m, ok := v.(map[string]interface{}); ok {
			if _, has := m[directiveKey]; has {
				c := map[string]interface{}{}
				for k, x := range m {
					if k != directiveKey {
						c[k] = x
					}
				}
				v = c
			}
		}
		out = append(out, v)
	}
	return out
}

func removeValues(list []interface{}, remove interface{}) []interface{} {
	drop, _ := remove.([]interface{})
	var out []interface{}
	for _, v := range list {
		if !containsValue(drop, v) {
			out = append(out, v)
		}
	}
	return out
}

func containsValue(list []interface{}, v interface{}) bool {
	for _, x := range list {
		if reflect.DeepEqual(x, v) {
			return true
		}
	}
	return false
}

// fieldOf finds the struct field of t serialized as name and returns its
// type with its patch strategy and merge key tags.
func fieldOf(t reflect.Type, name string) (reflect.Type, string, string) {
	t = derefType(t)
	if t == nil {
		return nil, "", ""
	}
	switch t.Kind() {
	case reflect.Map:
		return t.Elem(), "", ""
	case reflect.Struct:
	default:
		return nil, "", ""
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		jsonName, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && (jsonName == "" || strings.Contains(opts, "inline")) {
			if ft, s, k := fieldOf(f.Type, name); ft != nil {
				return ft, s, k
			}
			continue
		}
		if jsonName == name || (jsonName == "" && f.Name == name) {
			return f.Type, f.Tag.Get("patchStrategy"), f.Tag.Get("patchMergeKey")
		}
	}
	return nil, "", ""
}

func elemType(t reflect.Type) reflect.Type {
	t = derefType(t)
	if t == nil || (t.Kind() != reflect.Slice && t.Kind() != reflect.Array) {
		return nil
	}
	return t.Elem()
}

func derefType(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// applyJSONPatch applies RFC 6902 operations to doc.
func applyJSONPatch(doc interface{}, ops []map[string]interface{}) (interface{}, error) {
	for i, op := range ops {
		name, _ := op["op"].(string)
		path, _ := op["path"].(string)
		var err error
		switch name {
		case "add":
			doc, err = pointerSet(doc, path, runtime.DeepCopyJSONValue(op["value"]), true)
		case "replace":
			if _, err = pointerGet(doc, path); err == nil {
				doc, err = pointerSet(doc, path, runtime.DeepCopyJSONValue(op["value"]), false)
			}
		case "remove":
			doc, _, err = pointerRemove(doc, path)
		case "move", "copy":
			from, _ := op["from"].(string)
			var v interface{}
			if name == "move" {
				doc, v, err = pointerRemove(doc, from)
			} else if v, err = pointerGet(doc, from); err == nil {
				v = runtime.DeepCopyJSONValue(v)
			}
			if err == nil {
				doc, err = pointerSet(doc, path, v, true)
			}
		case "test":
			var v interface{}
			if v, err = pointerGet(doc, path); err == nil && !reflect.DeepEqual(v, op["value"]) {
				err = fmt.Errorf("test failed: value at %q differs", path)
			}
		default:
			err = fmt.Errorf("unknown operation %q", name)
		}
		if err != nil {
			return nil, fmt.Errorf("JSON patch operation %d (%s %s): %w", i, name, path, err)
		}
	}
	return doc, nil
}

func splitPointer(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("JSON pointer %q must start with /", path)
	}
	parts := strings.Split(path[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

func pointerGet(doc interface{}, path string) (interface{}, error) {
	parts, err := splitPointer(path)
	if err != nil {
		return nil, err
	}
	cur := doc
	for _, p := range parts {
		switch c := cur.(type) {
		case map[string]interface{}:
			v, ok := c[p]
			if !ok {
				return nil, fmt.Errorf("no value at %q", path)
			}
			cur = v
		case []interface{}:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("index %q out of range at %q", p, path)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("no value at %q", path)
		}
	}
	return cur, nil
}

// pointerSet stores v at path; insert selects the add semantics for
// arrays (insert before the index, "-" appends) over replacement.
func pointerSet(doc interface{}, path string, v interface{}, insert bool) (interface{}, error) {
	parts, err := splitPointer(path)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return v, nil
	}
	return setIn(doc, parts, v, insert)
}

func setIn(cur interface{}, parts []string, v interface{}, insert bool) (interface{}, error) {
	p := parts[0]
	last := len(parts) == 1
	switch c := cur.(type) {
	case map[string]interface{}:
		if last {
			c[p] = v
			return c, nil
		}
		child, ok := c[p]
		if !ok {
			return nil, fmt.Errorf("missing parent %q", p)
		}
		nv, err := setIn(child, parts[1:], v, insert)
		if err != nil {
			return nil, err
		}
		c[p] = nv
		return c, nil
	case []interface{}:
		if last && insert && p == "-" {
			return append(c, v), nil
		}
		i, err := strconv.Atoi(p)
		if err != nil || i < 0 || i > len(c) || (i == len(c) && !(last && insert)) {
			return nil, fmt.Errorf("index %q out of range", p)
		}
		if last {
			if insert {
				c = append(c, nil)
				copy(c[i+1:], c[i:])
				c[i] = v
				return c, nil
			}
			c[i] = v
			return c, nil
		}
		nv, err := setIn(c[i], parts[1:], v, insert)
		if err != nil {
			return nil, err
		}
		c[i] = nv
		return c, nil
	default:
		return nil, fmt.Errorf("cannot descend into %T at %q", cur, p)
	}
}

func pointerRemove(doc interface{}, path string) (interface{}, interface{}, error) {
	parts, err := splitPointer(path)
	if err != nil {
		return nil, nil, err
	}
	if len(parts) == 0 {
		return nil, nil, fmt.Errorf("cannot remove the whole document")
	}
	var removed interface{}
	var remove func(cur interface{}, parts []string) (interface{}, error)
	remove = func(cur interface{}, parts []string) (interface{}, error) {
		p := parts[0]
		switch c := cur.(type) {
		case map[string]interface{}:
			child, ok := c[p]
			if !ok {
				return nil, fmt.Errorf("no value at %q", path)
			}
			if len(parts) == 1 {
				removed = child
				delete(c, p)
				return c, nil
			}
			nv, err := remove(child, parts[1:])
			if err != nil {
				return nil, err
			}
			c[p] = nv
			return c, nil
		case []interface{}:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("index %q out of range at %q", p, path)
			}
			if len(parts) == 1 {
				removed = c[i]
				return append(c[:i], c[i+1:]...), nil
			}
			nv, err := remove(c[i], parts[1:])
			if err != nil {
				return nil, err
			}
			c[i] = nv
			return c, nil
		default:
			return nil, fmt.Errorf("no value at %q", path)
		}
	}
	out, err := remove(doc, parts)
	return out, removed, err
}
