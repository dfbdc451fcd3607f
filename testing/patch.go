package testing

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
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
		if patched, err = strategicMerge(original, p, current); err != nil {
			return nil, err
		}
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
	merged, err := strategicMerge(runtime.DeepCopyJSON(original), runtime.DeepCopyJSON(patch), current)
	if err != nil {
		return nil, err
	}
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
		// The message is exactly the one fake clients have always given.
		return nil, errors.New("invalid JSON document")
	}
	return p, nil
}

// strategicMerge applies a strategic merge patch with apimachinery's
// implementation, driven by the patch tags of like's Go type, as the API server
// does for built-in types. Unstructured objects carry no such tags, so for them
// (as on the server, for custom resources) it degrades to a JSON merge patch.
func strategicMerge(original, patch map[string]interface{}, like runtime.Object) (map[string]interface{}, error) {
	if _, ok := like.(runtime.Unstructured); ok {
		merged, _ := mergePatch(original, patch).(map[string]interface{})
		return merged, nil
	}
	merged, err := strategicpatch.StrategicMergeMapPatch(original, patch, like)
	if err != nil {
		return nil, fmt.Errorf("strategic merge patch: %w", err)
	}
	return merged, nil
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
