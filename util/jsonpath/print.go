package jsonpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

// PrintResults writes results separated by spaces: maps, slices and structs
// as JSON, everything else as fmt prints it. In JSON output mode the whole set
// is written as one indented JSON array.
func (j *JSONPath) PrintResults(wr io.Writer, results []reflect.Value) error {
	if j.outputJSON {
		values := make([]interface{}, 0, len(results))
		for _, r := range results {
			if !r.CanInterface() {
				return fmt.Errorf("can't print type %s", r.Type())
			}
			values = append(values, r.Interface())
		}
		text, err := json.MarshalIndent(values, "", "    ")
		if err != nil {
			return err
		}
		_, err = wr.Write(append(text, '\n'))
		return err
	}
	for i, r := range results {
		text, err := formatValue(r)
		if err != nil {
			return err
		}
		if i != len(results)-1 {
			text = append(text, ' ')
		}
		if _, err := wr.Write(text); err != nil {
			return err
		}
	}
	return nil
}

var (
	errorType    = reflect.TypeOf((*error)(nil)).Elem()
	stringerType = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
)

// formatValue renders one result the way kubectl prints it.
func formatValue(v reflect.Value) ([]byte, error) {
	kind := v.Kind()
	if kind == reflect.Interface && !v.IsNil() {
		kind = v.Elem().Kind()
	}
	switch kind {
	case reflect.Map, reflect.Array, reflect.Slice, reflect.Struct:
		if !v.CanInterface() {
			return nil, fmt.Errorf("can't print type %s", v.Type())
		}
		return json.Marshal(v.Interface())
	}
	if kind == reflect.Pointer {
		for v.Kind() == reflect.Pointer && !v.IsNil() {
			v = v.Elem()
		}
	}
	if !v.IsValid() {
		return []byte("<no value>"), nil
	}
	if !v.Type().Implements(errorType) && !v.Type().Implements(stringerType) {
		ptr := reflect.PointerTo(v.Type())
		if v.CanAddr() && (ptr.Implements(errorType) || ptr.Implements(stringerType)) {
			v = v.Addr()
		} else if kind := v.Kind(); kind == reflect.Chan || kind == reflect.Func {
			return nil, fmt.Errorf("can't print type %s", v.Type())
		}
	}
	if !v.CanInterface() {
		return nil, fmt.Errorf("can't print type %s", v.Type())
	}
	iface := v.Interface()
	if iface == nil {
		return []byte("null"), nil
	}
	var buf bytes.Buffer
	fmt.Fprint(&buf, iface)
	return buf.Bytes(), nil
}
