package jsonpath

import (
	"fmt"
	"reflect"
	"sort"
)

// Evaluation works on sets of values: every node of an action maps the
// values selected so far to the values it selects from them, so that
// {.items[*].metadata.name} is three steps, each applied to all results of
// the one before.
//
// The results follow client-go's evaluator, including where it fails: a
// missing field is an error unless AllowMissingKeys is set, while an index
// out of bounds always is; a slice that selects nothing ends the step with
// the values found so far; numbers of different kinds (an int literal and a
// float64 decoded from JSON) do not compare. When a step fails, the values it
// leaves behind are those client-go's leaves (the step's input for indexes,
// unions and filters, nothing for fields), because an existence filter
// [?(@.x)] counts them.

// eval applies node n to input.
func (j *JSONPath) eval(input []reflect.Value, n Node) ([]reflect.Value, error) {
	switch n := n.(type) {
	case *ListNode:
		cur := input
		for _, step := range n.Nodes {
			var err error
			if cur, err = j.eval(cur, step); err != nil {
				return cur, err
			}
		}
		return cur, nil
	case *TextNode:
		return []reflect.Value{reflect.ValueOf(n.Text)}, nil
	case *IntNode:
		return constantFor(input, n.Value), nil
	case *FloatNode:
		return constantFor(input, n.Value), nil
	case *BoolNode:
		return constantFor(input, n.Value), nil
	case *FieldNode:
		return j.selectField(input, n.Value)
	case *ArrayNode:
		return selectIndexes(input, n.Params)
	case *UnionNode:
		var out []reflect.Value
		for _, alt := range n.Nodes {
			got, err := j.eval(input, alt)
			if err != nil {
				return input, err
			}
			out = append(out, got...)
		}
		return out, nil
	case *WildcardNode:
		var out []reflect.Value
		for _, v := range input {
			out = append(out, members(v)...)
		}
		return out, nil
	case *RecursiveNode:
		return descendants(input), nil
	case *FilterNode:
		return j.selectMatching(input, n)
	case *IdentifierNode:
		if n.Name == "end" {
			return nil, fmt.Errorf("not in range, nothing to end")
		}
		return input, fmt.Errorf("unrecognized identifier %v", n.Name)
	default:
		return input, fmt.Errorf("unexpected Node %v", n)
	}
}

// constantFor returns the literal c once for each value of input.
func constantFor[T any](input []reflect.Value, c T) []reflect.Value {
	out := make([]reflect.Value, len(input))
	for i := range out {
		out[i] = reflect.ValueOf(c)
	}
	return out
}

// indirect follows pointers and interfaces; isNil reports a nil on the way
// (v is then that nil) or an invalid value.
func indirect(v reflect.Value) (rv reflect.Value, isNil bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, !v.IsValid()
}

// members returns what a wildcard selects in v: every field of a struct,
// the values of a map (by sorted key), the elements of an array or slice
// and the bytes of a string.
func members(v reflect.Value) []reflect.Value {
	v, isNil := indirect(v)
	if isNil {
		return nil
	}
	var out []reflect.Value
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			out = append(out, v.Field(i))
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(a, b int) bool {
			return fmt.Sprint(keys[a].Interface()) < fmt.Sprint(keys[b].Interface())
		})
		for _, k := range keys {
			out = append(out, v.MapIndex(k))
		}
	case reflect.Array, reflect.Slice, reflect.String:
		for i := range v.Len() {
			out = append(out, v.Index(i))
		}
	}
	return out
}

// descendants returns, for the ".." operator, every value at or below input
// that has members, parents before their members.
func descendants(input []reflect.Value) []reflect.Value {
	var out []reflect.Value
	for _, v := range input {
		below := members(v)
		if len(below) == 0 {
			continue
		}
		self, _ := indirect(v)
		out = append(out, self)
		out = append(out, descendants(below)...)
	}
	return out
}

// selectField returns the field or map entry name of each input value.
// Finding it nowhere is an error unless missing keys are allowed; an empty
// input selects nothing without error.
func (j *JSONPath) selectField(input []reflect.Value, name string) ([]reflect.Value, error) {
	if len(input) == 0 {
		return nil, nil
	}
	var out []reflect.Value
	for _, v := range input {
		v, isNil := indirect(v)
		if isNil {
			continue
		}
		var found reflect.Value
		switch v.Kind() {
		case reflect.Struct:
			found = fieldByJSONName(v, name)
		case reflect.Map:
			key := reflect.ValueOf(name)
			if !key.Type().ConvertibleTo(v.Type().Key()) {
				return out, fmt.Errorf("%s is not convertible to %s", name, v.Type().Key())
			}
			found = v.MapIndex(key.Convert(v.Type().Key()))
		}
		if found.IsValid() {
			out = append(out, found)
		}
	}
	if len(out) == 0 && !j.allowMissingKeys {
		return nil, fmt.Errorf("%s is not found", name)
	}
	return out, nil
}

// sliceBounds resolves the [start:end:step] of an index expression against
// a list of length n: negative positions count from the end, a single index
// i is [i:i+1], and an unset start or end is the whole list.
func sliceBounds(p [3]ParamsEntry, n int) (start, end, step int, err error) {
	if p[0].Known {
		start = p[0].Value
	}
	if start < 0 {
		start += n
	}
	end = n
	if p[1].Known {
		end = p[1].Value
	}
	if end < 0 || (end == 0 && p[1].Derived) {
		end += n
	}
	if start == end {
		return start, end, 1, nil
	}
	switch {
	case start < 0 || start >= n:
		return 0, 0, 0, fmt.Errorf("array index out of bounds: index %d, length %d", start, n)
	case end < 0 || end > n:
		return 0, 0, 0, fmt.Errorf("array index out of bounds: index %d, length %d", end-1, n)
	case start > end:
		return 0, 0, 0, fmt.Errorf("starting index %d is greater than ending index %d", start, end)
	}
	step = 1
	if p[2].Known {
		if p[2].Value <= 0 {
			return 0, 0, 0, fmt.Errorf("step must be > 0")
		}
		step = p[2].Value
	}
	return start, end, step, nil
}

// selectIndexes applies an index or slice expression to each list of
// input. Like client-go's, it stops at the first list the expression
// selects nothing from and returns what it selected before.
func selectIndexes(input []reflect.Value, p [3]ParamsEntry) ([]reflect.Value, error) {
	var out []reflect.Value
	for _, v := range input {
		v, isNil := indirect(v)
		if isNil {
			continue
		}
		if k := v.Kind(); k != reflect.Array && k != reflect.Slice {
			return input, fmt.Errorf("%v is not array or slice", v.Type())
		}
		start, end, step, err := sliceBounds(p, v.Len())
		if err != nil {
			return input, err
		}
		if start == end {
			return out, nil
		}
		for i := start; i < end; i += step {
			out = append(out, v.Index(i))
		}
	}
	return out, nil
}

// selectMatching returns the elements of each list of input that pass the
// filter n. A nil in input is not a list and fails the step.
func (j *JSONPath) selectMatching(input []reflect.Value, n *FilterNode) ([]reflect.Value, error) {
	var out []reflect.Value
	for _, list := range input {
		list, _ = indirect(list)
		if k := list.Kind(); k != reflect.Array && k != reflect.Slice {
			return input, fmt.Errorf("%v is not array or slice and cannot be filtered", list)
		}
		for i := range list.Len() {
			elem := list.Index(i)
			pass, err := j.passes(elem, n)
			if err != nil {
				if _, isComparison := err.(comparisonError); isComparison {
					return out, err
				}
				return input, err
			}
			if pass {
				out = append(out, elem)
			}
		}
	}
	return out, nil
}

// passes evaluates filter n for one element. An existence test passes when
// its path selects anything, even if it fails on the way; a comparison
// needs exactly one value on each side and skips the element when a side
// has none.
func (j *JSONPath) passes(elem reflect.Value, n *FilterNode) (bool, error) {
	at := []reflect.Value{elem}
	left, err := j.eval(at, n.Left)
	if n.Operator == "exists" {
		return len(left) > 0, nil
	}
	if err != nil {
		return false, err
	}
	l, ok, err := onlyValue(left)
	if !ok || err != nil {
		return false, err
	}
	right, err := j.eval(at, n.Right)
	if err != nil {
		return false, err
	}
	r, ok, err := onlyValue(right)
	if !ok || err != nil {
		return false, err
	}
	return compare(n.Operator, l, r)
}

// onlyValue returns the one value of vs; ok is false when there is none,
// and more than one is an error.
func onlyValue(vs []reflect.Value) (v reflect.Value, ok bool, err error) {
	switch len(vs) {
	case 0:
		return reflect.Value{}, false, nil
	case 1:
		return vs[0], true, nil
	}
	return reflect.Value{}, false, fmt.Errorf("can only compare one element at a time")
}
