package testing

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// objectSelector decides which objects a list or watch returns: those in
// namespace ns (any when empty) matching both selectors.
type objectSelector struct {
	ns     string
	labels labels.Selector
	fields fields.Selector
}

// newObjectSelector parses the selectors of opts, answering a malformed
// selector with a BadRequest error like the API server.
func newObjectSelector(ns string, opts metav1.ListOptions) (objectSelector, error) {
	l, err := labels.Parse(opts.LabelSelector)
	if err != nil {
		return objectSelector{}, apierrors.NewBadRequest(fmt.Sprintf("invalid label selector %q: %v", opts.LabelSelector, err))
	}
	f, err := fields.ParseSelector(opts.FieldSelector)
	if err != nil {
		return objectSelector{}, apierrors.NewBadRequest(fmt.Sprintf("invalid field selector %q: %v", opts.FieldSelector, err))
	}
	return objectSelector{ns: ns, labels: l, fields: f}, nil
}

// matches reports whether obj is selected. Objects without metadata are
// selected only by a selector that selects everything.
func (s objectSelector) matches(obj runtime.Object) bool {
	if obj == nil {
		return false
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return s.ns == "" && s.labels.Empty() && s.fields.Empty()
	}
	if s.ns != "" && m.GetNamespace() != s.ns {
		return false
	}
	if !s.labels.Empty() && !s.labels.Matches(labels.Set(m.GetLabels())) {
		return false
	}
	if s.fields.Empty() {
		return true
	}
	return s.fields.Matches(&objectFields{obj: obj, meta: m})
}

// objectFields exposes the fields of an object to a field selector by
// their JSON path ("metadata.name", "spec.nodeName", "status.phase"). The
// JSON form is computed on first use.
type objectFields struct {
	obj     runtime.Object
	meta    metav1.Object
	content map[string]interface{}
	err     error
	loaded  bool
}

// Has reports whether the field path has a value.
func (f *objectFields) Has(path string) bool {
	_, ok := f.lookup(path)
	return ok
}

// Get returns the value at the field path as the API server renders it for
// field selectors; a missing field reads as "".
func (f *objectFields) Get(path string) string {
	v, _ := f.lookup(path)
	return v
}

func (f *objectFields) lookup(path string) (string, bool) {
	switch path {
	case "metadata.name":
		return f.meta.GetName(), true
	case "metadata.namespace":
		return f.meta.GetNamespace(), true
	}
	if v, ok := typedField(f.obj, path); ok {
		return v, true
	}
	if !f.loaded {
		f.content, f.err = contentOf(f.obj)
		f.loaded = true
	}
	if f.err != nil {
		return "", false
	}
	var cur interface{} = f.content
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]interface{})
		if !ok {
			return "", false
		}
		if cur, ok = m[part]; !ok {
			return "", false
		}
	}
	switch v := cur.(type) {
	case nil:
		return "", true
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case int:
		return strconv.Itoa(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	default:
		return fmt.Sprint(v), true
	}
}

// typedField reads a field path straight from a typed object by the JSON
// names of its struct fields, which spares converting the whole object.
// ok is false when the path cannot be read that way (an unstructured
// object, a list or a struct-valued leaf on the way), and the caller then
// uses the object's JSON form.
func typedField(obj runtime.Object, path string) (string, bool) {
	if _, isUnstructured := obj.(runtime.Unstructured); isUnstructured {
		return "", false
	}
	v := reflect.ValueOf(obj)
	for _, part := range strings.Split(path, ".") {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return "", true
			}
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.Struct:
			field, found := structFieldByJSONName(v, part)
			if !found {
				return "", false
			}
			v = field
		case reflect.Map:
			if v.Type().Key().Kind() != reflect.String {
				return "", false
			}
			v = v.MapIndex(reflect.ValueOf(part).Convert(v.Type().Key()))
			if !v.IsValid() {
				return "", true
			}
		default:
			return "", false
		}
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", true
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		return v.String(), true
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10), true
	default:
		return "", false
	}
}

// structFieldByJSONName finds the field of struct value v serialized under
// name, looking into inlined embedded structs.
func structFieldByJSONName(v reflect.Value, name string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		jsonName, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if jsonName == "-" {
			continue
		}
		if f.Anonymous && (jsonName == "" || strings.Contains(opts, "inline")) {
			inner := v.Field(i)
			for inner.Kind() == reflect.Pointer {
				if inner.IsNil() {
					break
				}
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct {
				if found, ok := structFieldByJSONName(inner, name); ok {
					return found, true
				}
			}
			continue
		}
		if jsonName == name || (jsonName == "" && f.Name == name) {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}
