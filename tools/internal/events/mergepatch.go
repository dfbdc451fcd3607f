package internal

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// CreateTwoWayMergePatch returns a JSON merge patch (RFC 7386) that turns
// the JSON object original into modified: changed and added fields carry
// their new value, removed fields are set to null, and nested objects are
// diffed recursively.
//
// For Event objects, whose patched fields hold no merge-keyed lists, the
// result is also the strategic merge patch the API server expects.
func CreateTwoWayMergePatch(original, modified []byte) ([]byte, error) {
	var from, to map[string]interface{}
	if err := json.Unmarshal(original, &from); err != nil {
		return nil, fmt.Errorf("original document is not a JSON object: %w", err)
	}
	if err := json.Unmarshal(modified, &to); err != nil {
		return nil, fmt.Errorf("modified document is not a JSON object: %w", err)
	}
	return json.Marshal(diffObjects(from, to))
}

func diffObjects(from, to map[string]interface{}) map[string]interface{} {
	patch := map[string]interface{}{}
	for k, newValue := range to {
		oldValue, existed := from[k]
		if !existed {
			patch[k] = newValue
			continue
		}
		oldObj, oldIsObj := oldValue.(map[string]interface{})
		newObj, newIsObj := newValue.(map[string]interface{})
		if oldIsObj && newIsObj {
			if sub := diffObjects(oldObj, newObj); len(sub) > 0 {
				patch[k] = sub
			}
			continue
		}
		if !reflect.DeepEqual(oldValue, newValue) {
			patch[k] = newValue
		}
	}
	for k := range from {
		if _, kept := to[k]; !kept {
			patch[k] = nil
		}
	}
	return patch
}
