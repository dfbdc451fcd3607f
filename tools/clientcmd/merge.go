package clientcmd

import (
	"fmt"
	"reflect"
	"strings"
)

// overlay copies the set parts of src onto dst, walking the value
// recursively. It is the one merge rule used for kubeconfig objects:
//
//   - a struct that has exported fields is walked field by field;
//   - a struct with only unexported fields is replaced by src as a whole;
//   - a non-empty map is merged key by key, src's entry replacing dst's;
//   - a non-empty slice replaces dst's slice;
//   - a non-nil pointer to a struct is shared; a non-nil pointer to anything
//     else is copied into a new allocation;
//   - any other non-zero value (strings, numbers, bools, interfaces,
//     funcs) replaces dst's.
//
// Zero values in src never clear anything in dst, which is why overlaying a
// sequence of objects from last to first leaves "the first one that set a
// value" in dst.
func overlay[T any](dst, src *T) error {
	if dst == nil {
		return fmt.Errorf("cannot merge into nil pointer")
	}
	if src == nil {
		return nil
	}
	return overlayValue(nil, reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem())
}

func overlayValue(path []string, dst, src reflect.Value) error {
	if !src.IsValid() {
		return nil
	}
	if dst.Type() != src.Type() {
		return fmt.Errorf("cannot merge mismatched types (%s, %s) at %s", dst.Type(), src.Type(), strings.Join(path, "."))
	}
	kind := dst.Kind()
	if kind == reflect.Struct {
		t := dst.Type()
		if !structHasExportedField(t) {
			if dst.CanSet() {
				dst.Set(src)
			}
			return nil
		}
		for i := 0; i < t.NumField(); i++ {
			if err := overlayValue(append(path, t.Field(i).Name), dst.Field(i), src.Field(i)); err != nil {
				return err
			}
		}
		return nil
	}
	if !dst.CanSet() {
		return nil
	}
	switch kind {
	case reflect.Map:
		if src.Len() == 0 && src.IsNil() {
			return nil
		}
		if src.Len() == 0 {
			// An empty, non-nil map still makes dst non-nil.
			if dst.IsNil() {
				dst.Set(reflect.MakeMap(dst.Type()))
			}
			return nil
		}
		if dst.IsNil() {
			dst.Set(reflect.MakeMapWithSize(dst.Type(), src.Len()))
		}
		iter := src.MapRange()
		for iter.Next() {
			dst.SetMapIndex(iter.Key(), iter.Value())
		}
	case reflect.Slice:
		if src.Len() > 0 {
			dst.Set(src)
		}
	case reflect.Pointer:
		if src.IsNil() {
			return nil
		}
		if dst.Type().Elem().Kind() == reflect.Struct {
			dst.Set(src)
			return nil
		}
		fresh := reflect.New(dst.Type().Elem())
		fresh.Elem().Set(src.Elem())
		dst.Set(fresh)
	default:
		if !src.IsZero() {
			dst.Set(src)
		}
	}
	return nil
}

// structHasExportedField reports whether t, or a struct embedded in it, has
// an exported field.
func structHasExportedField(t reflect.Type) bool {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if structHasExportedField(f.Type) {
				return true
			}
			continue
		}
		if f.IsExported() {
			return true
		}
	}
	return false
}
