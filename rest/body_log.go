package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

// Request and response bodies are logged at verbosity 8 and above, but
// never in a form that could hold a secret. client-go logs them as they
// are (text, or a hex dump whose ASCII column shows protobuf strings), so a
// Secret, a TokenRequest or a custom object holding a password ends up in
// the log. Here:
//
//   - a JSON body whose kind is known to hold no secrets (Status, discovery
//     documents, request options) is logged as it is;
//   - any other JSON body is logged in a redacted form: the same structure,
//     with every string and number replaced by a marker except the type
//     (apiVersion, kind) and identity (metadata name, namespace,
//     generateName, uid, resourceVersion, creation and deletion timestamps)
//     of the object and of the items of a list, and the op, path and from of
//     JSON patch operations;
//   - any other body (protobuf, CBOR, text) is summed up by its size and,
//     for protobuf, its kind.
//
// The logged form is then truncated as before: 1 KiB at verbosity 8, 10 KiB
// at 9, whole at 10.

// redactedValue replaces a string or number in a logged body.
const redactedValue = "<redacted>"

// safeKinds are the kinds whose bodies are logged as they are.
var safeKinds = []string{
	"Status",
	"APIVersions", "APIGroupList", "APIGroup", "APIResourceList", "APIGroupDiscoveryList",
	"DeleteOptions", "ListOptions", "GetOptions", "CreateOptions", "PatchOptions", "UpdateOptions",
}

// keptMetadata are the metadata fields logged as they are.
var keptMetadata = []string{"name", "namespace", "generateName", "uid", "resourceVersion", "creationTimestamp", "deletionTimestamp"}

// protobufMagic starts every Kubernetes protobuf body.
var protobufMagic = []byte("k8s\x00")

// logBody logs a request or response body at verbosity 8 in a form safe
// for logs.
func logBody(logger klog.Logger, prefix string, body []byte) {
	v := logger.V(8)
	if !v.Enabled() {
		return
	}
	v.WithCallDepth(2).Info(prefix, "body", truncateForLog(logger, loggableBody(body)))
}

// loggableBody returns what may be logged of body.
func loggableBody(body []byte) string {
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return string(body)
	case trimmed[0] == '{' || trimmed[0] == '[':
		if text, ok := loggableJSON(trimmed); ok {
			return text
		}
	case bytes.HasPrefix(body, protobufMagic):
		var envelope runtime.Unknown
		if err := envelope.Unmarshal(body[len(protobufMagic):]); err == nil {
			return fmt.Sprintf("<protobuf %s %s, %d bytes, not logged>", envelope.APIVersion, envelope.Kind, len(body))
		}
	}
	return fmt.Sprintf("<%d bytes, not logged>", len(body))
}

// loggableJSON returns a JSON body as it is when its kind is known to be
// safe, redacted otherwise. ok is false when body is not JSON.
func loggableJSON(body []byte) (text string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil || dec.More() {
		return "", false
	}
	if obj, isObject := doc.(map[string]any); isObject {
		if kind, _ := obj["kind"].(string); slices.Contains(safeKinds, kind) {
			return string(body), true
		}
	}
	var redacted bytes.Buffer
	enc := json.NewEncoder(&redacted)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(redactDocument(doc)); err != nil {
		return "", false
	}
	return strings.TrimSuffix(redacted.String(), "\n"), true
}

// redactDocument redacts a JSON document: an object (kept: its type, its
// identity, and the same of the objects in its items, as in a list), or an
// array (kept: the op, path and from of JSON patch operations).
func redactDocument(doc any) any {
	switch doc := doc.(type) {
	case map[string]any:
		return redactObject(doc)
	case []any:
		out := make([]any, len(doc))
		for i, element := range doc {
			if op, isObject := element.(map[string]any); isObject {
				out[i] = redactFields(op, func(k string, v any) (any, bool) {
					return v, k == "op" || k == "path" || k == "from"
				})
			} else {
				out[i] = redactAll(element)
			}
		}
		return out
	default:
		return redactAll(doc)
	}
}

// redactObject redacts a typed object or list, keeping apiVersion, kind,
// the identity in metadata, and the same of the objects in items.
func redactObject(obj map[string]any) any {
	return redactFields(obj, func(k string, v any) (any, bool) {
		switch k {
		case "apiVersion", "kind":
			return v, true
		case "metadata":
			if meta, isObject := v.(map[string]any); isObject {
				return redactFields(meta, func(k string, v any) (any, bool) {
					return v, slices.Contains(keptMetadata, k)
				}), true
			}
		case "items":
			if items, isArray := v.([]any); isArray {
				out := make([]any, len(items))
				for i, item := range items {
					if itemObj, isObject := item.(map[string]any); isObject {
						out[i] = redactObject(itemObj)
					} else {
						out[i] = redactAll(item)
					}
				}
				return out, true
			}
		}
		return nil, false
	})
}

// redactFields copies obj, taking a field's value from keep when keep
// says so and redacting it entirely otherwise.
func redactFields(obj map[string]any, keep func(key string, value any) (any, bool)) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if kept, ok := keep(k, v); ok {
			out[k] = kept
		} else {
			out[k] = redactAll(v)
		}
	}
	return out
}

// redactAll keeps the structure of v and replaces every string and number
// in it by redactedValue.
func redactAll(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return redactFields(v, func(string, any) (any, bool) { return nil, false })
	case []any:
		out := make([]any, len(v))
		for i, element := range v {
			out[i] = redactAll(element)
		}
		return out
	case string, json.Number:
		return redactedValue
	default: // bool, nil
		return v
	}
}
