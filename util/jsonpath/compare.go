package jsonpath

import (
	"fmt"
	"reflect"
)

// compare applies a filter operator to two values. Numbers compare by value
// whatever their Go type (so an int literal matches a float64 decoded from
// JSON), strings lexically, and booleans only for equality.
func compare(op string, l, r reflect.Value) (bool, error) {
	l, lnil := indirect(l)
	r, rnil := indirect(r)
	if lnil || rnil {
		switch op {
		case "==":
			return lnil && rnil, nil
		case "!=":
			return lnil != rnil, nil
		}
		return false, fmt.Errorf("invalid type for comparison")
	}
	var c int
	switch {
	case isNumber(l) && isNumber(r):
		c = compareNumbers(l, r)
	case l.Kind() == reflect.String && r.Kind() == reflect.String:
		switch ls, rs := l.String(), r.String(); {
		case ls < rs:
			c = -1
		case ls > rs:
			c = 1
		}
	case l.Kind() == reflect.Bool && r.Kind() == reflect.Bool:
		if op != "==" && op != "!=" {
			return false, fmt.Errorf("invalid type for comparison")
		}
		if l.Bool() != r.Bool() {
			c = 1
		}
	default:
		return false, fmt.Errorf("incompatible types for comparison")
	}
	switch op {
	case "==":
		return c == 0, nil
	case "!=":
		return c != 0, nil
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	case ">=":
		return c >= 0, nil
	}
	return false, fmt.Errorf("unrecognized filter operator %s", op)
}

func isNumber(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func compareNumbers(l, r reflect.Value) int {
	if l.CanInt() && r.CanInt() {
		return cmp3(l.Int() < r.Int(), l.Int() > r.Int())
	}
	if l.CanUint() && r.CanUint() {
		return cmp3(l.Uint() < r.Uint(), l.Uint() > r.Uint())
	}
	lf, rf := asFloat(l), asFloat(r)
	return cmp3(lf < rf, lf > rf)
}

func asFloat(v reflect.Value) float64 {
	switch {
	case v.CanInt():
		return float64(v.Int())
	case v.CanUint():
		return float64(v.Uint())
	}
	return v.Float()
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}
