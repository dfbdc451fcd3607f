package jsonpath

import (
	"reflect"
)

// comparisonError is the failure of a filter's comparison itself, as
// opposed to the evaluation of its operands.
type comparisonError string

func (e comparisonError) Error() string { return string(e) }

const (
	// errInvalidType: an operand is not a boolean, number or string, or
	// two booleans (or complex numbers) are ordered.
	errInvalidType comparisonError = "invalid type for comparison"
	// errIncompatible: the operands are of different classes, such as an
	// int literal and a float64 decoded from JSON.
	errIncompatible comparisonError = "incompatible types for comparison"
)

// valueClass groups the kinds that compare with each other, as Go's
// text/template comparison functions (which client-go's filters use) do.
type valueClass int

const (
	notComparable valueClass = iota
	boolClass
	complexClass
	signedClass
	unsignedClass
	floatClass
	stringClass
)

func classOf(v reflect.Value) valueClass {
	switch v.Kind() {
	case reflect.Bool:
		return boolClass
	case reflect.Complex64, reflect.Complex128:
		return complexClass
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return signedClass
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return unsignedClass
	case reflect.Float32, reflect.Float64:
		return floatClass
	case reflect.String:
		return stringClass
	}
	return notComparable
}

// compare applies the filter operator op to the values l and r, each taken
// as the dynamic value it holds. An operator other than the six known is
// an error whatever the values. Values of one class compare by value;
// signed and unsigned integers compare with each other; any other mix of
// classes is an error, and booleans and complex numbers only compare for
// (in)equality.
func compare(op string, l, r reflect.Value) (bool, error) {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
	default:
		return false, comparisonError("unrecognized filter operator " + op)
	}
	a, b := dynamic(l), dynamic(r)
	order, orderable, err := order(a, b)
	if err != nil {
		return false, err
	}
	switch op {
	case "==":
		return order == 0, nil
	case "!=":
		return order != 0, nil
	}
	if !orderable {
		return false, errInvalidType
	}
	switch op {
	case "<":
		return order < 0, nil
	case "<=":
		return order <= 0, nil
	case ">":
		return order > 0, nil
	}
	return order >= 0, nil // ">="
}

// dynamic returns the value v holds, looking through one interface, as
// passing it on as an interface{} would.
func dynamic(v reflect.Value) reflect.Value {
	if !v.IsValid() || !v.CanInterface() {
		return reflect.Value{}
	}
	return reflect.ValueOf(v.Interface())
}

// order returns -1, 0 or 1 as a is less than, equal to or greater than b.
// For booleans and complex numbers, which have no order, it is 0 for equal
// and 1 otherwise, and orderable is false.
func order(a, b reflect.Value) (int, bool, error) {
	ca, cb := classOf(a), classOf(b)
	if ca == notComparable || cb == notComparable {
		return 0, false, errInvalidType
	}
	if ca != cb {
		switch {
		case ca == signedClass && cb == unsignedClass:
			return signedVsUnsigned(a.Int(), b.Uint()), true, nil
		case ca == unsignedClass && cb == signedClass:
			return -signedVsUnsigned(b.Int(), a.Uint()), true, nil
		}
		return 0, false, errIncompatible
	}
	switch ca {
	case boolClass:
		return unequal(a.Bool() != b.Bool()), false, nil
	case complexClass:
		return unequal(a.Complex() != b.Complex()), false, nil
	case signedClass:
		return threeWay(a.Int() < b.Int(), a.Int() > b.Int()), true, nil
	case unsignedClass:
		return threeWay(a.Uint() < b.Uint(), a.Uint() > b.Uint()), true, nil
	case floatClass:
		return threeWay(a.Float() < b.Float(), a.Float() > b.Float()), true, nil
	default:
		return threeWay(a.String() < b.String(), a.String() > b.String()), true, nil
	}
}

func signedVsUnsigned(s int64, u uint64) int {
	if s < 0 {
		return -1
	}
	return threeWay(uint64(s) < u, uint64(s) > u)
}

func unequal(differ bool) int {
	if differ {
		return 1
	}
	return 0
}

func threeWay(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}
