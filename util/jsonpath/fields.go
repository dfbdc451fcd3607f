package jsonpath

import (
	"reflect"
	"strings"
	"sync"
)

// structFields is how a field name resolves in a struct type, worked out
// once per type.
type structFields struct {
	// byTag maps the name part of each json tag to the first field
	// carrying it (fields without a tag count under "").
	byTag map[string]int
	// embedded is the last anonymous struct field without a json name, whose
	// fields are looked up next (-1: none).
	embedded int
}

var fieldsCache sync.Map // reflect.Type -> *structFields

func fieldsOf(t reflect.Type) *structFields {
	if cached, ok := fieldsCache.Load(t); ok {
		return cached.(*structFields)
	}
	sf := &structFields{byTag: map[string]int{}, embedded: -1}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if _, seen := sf.byTag[name]; !seen {
			sf.byTag[name] = i
		}
		if name == "" && f.Anonymous && f.Type.Kind() == reflect.Struct {
			sf.embedded = i
		} else if name == "" && f.Anonymous {
			sf.embedded = -1
		}
	}
	cached, _ := fieldsCache.LoadOrStore(t, sf)
	return cached.(*structFields)
}

// fieldByJSONName finds the field name of struct v the way client-go's
// jsonpath does: by json tag name, then inside the last embedded struct
// without a json name, then by Go field name (promoted fields included).
// The result is invalid when there is no such field or it sits behind a
// nil embedded pointer.
func fieldByJSONName(v reflect.Value, name string) reflect.Value {
	sf := fieldsOf(v.Type())
	if i, ok := sf.byTag[name]; ok {
		return v.Field(i)
	}
	if sf.embedded >= 0 {
		if found := fieldByJSONName(v.Field(sf.embedded), name); found.IsValid() {
			return found
		}
	}
	f, ok := v.Type().FieldByName(name)
	if !ok {
		return reflect.Value{}
	}
	found, err := v.FieldByIndexErr(f.Index)
	if err != nil {
		return reflect.Value{}
	}
	return found
}
