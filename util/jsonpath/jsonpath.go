package jsonpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// JSONPath is a parsed template that can be executed against data.
type JSONPath struct {
	name             string
	parser           *Parser
	allowMissingKeys bool
	outputJSON       bool
}

// New creates a new JSONPath with the given name.
func New(name string) *JSONPath {
	return &JSONPath{name: name}
}

// AllowMissingKeys makes a missing field or map key yield no result instead of
// an error. It returns j for chaining.
func (j *JSONPath) AllowMissingKeys(allow bool) *JSONPath {
	j.allowMissingKeys = allow
	return j
}

// EnableJSONOutput makes PrintResults write each set of results as one
// indented JSON array.
func (j *JSONPath) EnableJSONOutput(v bool) {
	j.outputJSON = v
}

// Parse parses the template text.
func (j *JSONPath) Parse(text string) error {
	p, err := Parse(j.name, text)
	if err != nil {
		return err
	}
	j.parser = p
	return nil
}

// Execute evaluates the template against data and writes the output to wr.
func (j *JSONPath) Execute(wr io.Writer, data interface{}) error {
	all, err := j.FindResults(data)
	if err != nil {
		return err
	}
	for _, results := range all {
		if err := j.PrintResults(wr, results); err != nil {
			return err
		}
	}
	return nil
}

// FindResults evaluates the template against data and returns, for each
// top-level node (text or action, with range bodies expanded once per
// element), the values it selected.
func (j *JSONPath) FindResults(data interface{}) ([][]reflect.Value, error) {
	if j.parser == nil || j.parser.Root == nil {
		return nil, fmt.Errorf("%s is an incomplete jsonpath template", j.name)
	}
	return j.findIn(j.parser.Root.Nodes, data)
}

// keyword reports the keyword an action starts with ("range", "end"), if any.
func keyword(n Node) string {
	list, ok := n.(*ListNode)
	if !ok || len(list.Nodes) == 0 {
		return ""
	}
	if id, ok := list.Nodes[0].(*IdentifierNode); ok && (id.Name == "range" || id.Name == "end") {
		return id.Name
	}
	return ""
}

// matchingEnd returns the index of the {end} closing a {range} whose body
// starts at nodes[0], or len(nodes) if the range is never closed.
func matchingEnd(nodes []Node) int {
	depth := 0
	for i, n := range nodes {
		switch keyword(n) {
		case "range":
			depth++
		case "end":
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return len(nodes)
}

func (j *JSONPath) findIn(nodes []Node, data interface{}) ([][]reflect.Value, error) {
	var all [][]reflect.Value
	input := []reflect.Value{reflect.ValueOf(data)}
	for i := 0; i < len(nodes); i++ {
		switch keyword(nodes[i]) {
		case "end":
			return nil, fmt.Errorf("not in range, nothing to end")
		case "range":
			head := nodes[i].(*ListNode)
			items, err := j.walk(input, &ListNode{NodeType: NodeList, Nodes: head.Nodes[1:]})
			if err != nil {
				return nil, err
			}
			body := nodes[i+1:]
			end := matchingEnd(body)
			for _, item := range items {
				if !item.CanInterface() {
					continue
				}
				sub, err := j.findIn(body[:end], item.Interface())
				if err != nil {
					return nil, err
				}
				all = append(all, sub...)
			}
			i += end + 1
		default:
			results, err := j.walk(input, nodes[i])
			if err != nil {
				return nil, err
			}
			all = append(all, results)
		}
	}
	return all, nil
}

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

// indirect follows pointers and interfaces; isNil reports a nil on the way.
func indirect(v reflect.Value) (rv reflect.Value, isNil bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, !v.IsValid()
}

func (j *JSONPath) walk(input []reflect.Value, node Node) ([]reflect.Value, error) {
	switch n := node.(type) {
	case *ListNode:
		var err error
		cur := input
		for _, child := range n.Nodes {
			if cur, err = j.walk(cur, child); err != nil {
				return nil, err
			}
		}
		return cur, nil
	case *TextNode:
		return []reflect.Value{reflect.ValueOf(n.Text)}, nil
	case *IntNode:
		return []reflect.Value{reflect.ValueOf(n.Value)}, nil
	case *FloatNode:
		return []reflect.Value{reflect.ValueOf(n.Value)}, nil
	case *BoolNode:
		return []reflect.Value{reflect.ValueOf(n.Value)}, nil
	case *FieldNode:
		return j.evalField(input, n)
	case *ArrayNode:
		return j.evalArray(input, n)
	case *UnionNode:
		var out []reflect.Value
		for _, list := range n.Nodes {
			res, err := j.walk(input, list)
			if err != nil {
				return nil, err
			}
			out = append(out, res...)
		}
		return out, nil
	case *WildcardNode:
		var out []reflect.Value
		for _, v := range input {
			out = append(out, children(v)...)
		}
		return out, nil
	case *RecursiveNode:
		return descendants(input), nil
	case *FilterNode:
		return j.evalFilter(input, n)
	case *IdentifierNode:
		if n.Name == "end" {
			return nil, fmt.Errorf("not in range, nothing to end")
		}
		return nil, fmt.Errorf("unrecognized identifier %v", n.Name)
	default:
		return nil, fmt.Errorf("unexpected Node %v", node)
	}
}

// children returns the fields of a struct, the values of a map (by sorted
// key) or the elements of an array or slice.
func children(v reflect.Value) []reflect.Value {
	v, isNil := indirect(v)
	if isNil {
		return nil
	}
	var out []reflect.Value
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				out = append(out, v.Field(i))
			}
		}
	case reflect.Map:
		for _, k := range sortedKeys(v) {
			out = append(out, v.MapIndex(k))
		}
	case reflect.Array, reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			out = append(out, v.Index(i))
		}
	}
	return out
}

func sortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	sort.Slice(keys, func(a, b int) bool {
		return fmt.Sprint(keys[a].Interface()) < fmt.Sprint(keys[b].Interface())
	})
	return keys
}

// descendants returns every value below input (depth first) that itself has
// children, starting with the inputs, for the ".." operator.
func descendants(input []reflect.Value) []reflect.Value {
	var out []reflect.Value
	for _, v := range input {
		kids := children(v)
		if len(kids) == 0 {
			continue
		}
		iv, _ := indirect(v)
		out = append(out, iv)
		out = append(out, descendants(kids)...)
	}
	return out
}

// jsonName returns the name a struct field has in JSON and whether it is
// inlined into its parent.
func jsonName(f reflect.StructField) (name string, inline bool) {
	tag := f.Tag.Get("json")
	name, opts, _ := strings.Cut(tag, ",")
	if strings.Contains(","+opts+",", ",inline,") {
		return "", true
	}
	if name == "" && f.Anonymous {
		return "", true
	}
	return name, false
}

// lookupField finds a struct field by JSON name, looking inside inlined
// structs, and falls back to the Go field name.
func lookupField(v reflect.Value, name string) reflect.Value {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		jname, inline := jsonName(f)
		if jname == name {
			return v.Field(i)
		}
		if inline {
			inner, isNil := indirect(v.Field(i))
			if !isNil && inner.Kind() == reflect.Struct {
				if found := lookupField(inner, name); found.IsValid() {
					return found
				}
			}
		}
	}
	if f, ok := t.FieldByName(name); ok && f.IsExported() && len(f.Index) == 1 {
		return v.Field(f.Index[0])
	}
	return reflect.Value{}
}

func (j *JSONPath) evalField(input []reflect.Value, node *FieldNode) ([]reflect.Value, error) {
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
			found = lookupField(v, node.Value)
		case reflect.Map:
			key := reflect.ValueOf(node.Value)
			if !key.Type().ConvertibleTo(v.Type().Key()) {
				return nil, fmt.Errorf("%s is not convertible to %s", node.Value, v.Type().Key())
			}
			found = v.MapIndex(key.Convert(v.Type().Key()))
		}
		if found.IsValid() {
			out = append(out, found)
		}
	}
	if len(out) == 0 && !j.allowMissingKeys {
		return nil, fmt.Errorf("%s is not found", node.Value)
	}
	return out, nil
}

func (j *JSONPath) evalArray(input []reflect.Value, node *ArrayNode) ([]reflect.Value, error) {
	var out []reflect.Value
	for _, v := range input {
		v, isNil := indirect(v)
		if isNil {
			continue
		}
		if v.Kind() != reflect.Array && v.Kind() != reflect.Slice {
			return nil, fmt.Errorf("%v is not array or slice", v.Type())
		}
		n := v.Len()
		start, end := 0, n
		if p := node.Params[0]; p.Known {
			start = p.Value
			if start < 0 {
				start += n
			}
		}
		if p := node.Params[1]; p.Known {
			end = p.Value
			if end < 0 || (end == 0 && p.Derived) {
				end += n
			}
		}
		if start == end {
			continue
		}
		if start < 0 || start >= n {
			return nil, fmt.Errorf("array index out of bounds: index %d, length %d", start, n)
		}
		if end < 0 || end > n {
			return nil, fmt.Errorf("array index out of bounds: index %d, length %d", end-1, n)
		}
		if start > end {
			return nil, fmt.Errorf("starting index %d is greater than ending index %d", start, end)
		}
		step := 1
		if p := node.Params[2]; p.Known {
			if p.Value <= 0 {
				return nil, fmt.Errorf("step must be > 0")
			}
			step = p.Value
		}
		for i := start; i < end; i += step {
			out = append(out, v.Index(i))
		}
	}
	return out, nil
}

func (j *JSONPath) evalFilter(input []reflect.Value, node *FilterNode) ([]reflect.Value, error) {
	var out []reflect.Value
	for _, v := range input {
		v, isNil := indirect(v)
		if isNil {
			continue
		}
		if v.Kind() != reflect.Array && v.Kind() != reflect.Slice {
			return nil, fmt.Errorf("%v is not array or slice and cannot be filtered", v)
		}
		for i := 0; i < v.Len(); i++ {
			elem := []reflect.Value{v.Index(i)}
			lefts, err := j.walk(elem, node.Left)
			if node.Operator == "exists" {
				if err == nil && len(lefts) > 0 {
					out = append(out, v.Index(i))
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			left, ok, err := single(lefts)
			if err != nil || !ok {
				if err != nil {
					return nil, err
				}
				continue
			}
			rights, err := j.walk(elem, node.Right)
			if err != nil {
				return nil, err
			}
			right, ok, err := single(rights)
			if err != nil || !ok {
				if err != nil {
					return nil, err
				}
				continue
			}
			pass, err := compare(node.Operator, left, right)
			if err != nil {
				return nil, err
			}
			if pass {
				out = append(out, v.Index(i))
			}
		}
	}
	return out, nil
}

func single(vs []reflect.Value) (reflect.Value, bool, error) {
	switch len(vs) {
	case 0:
		return reflect.Value{}, false, nil
	case 1:
		return vs[0], true, nil
	default:
		return reflect.Value{}, false, fmt.Errorf("can only compare one element at a time")
	}
}
