package jsonpath

import (
	"fmt"
	"io"
	"reflect"
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

// findIn evaluates the top-level nodes of a template (or of a range body)
// against data. A {range} repeats the nodes up to its {end} for each value
// its expression selects; when it selects nothing, the body is still
// evaluated once against no data, so that an error in it (a field missing
// without AllowMissingKeys) is reported as client-go reports it. A range
// without {end} runs to the end of the template and, as in client-go, its
// body is then evaluated once more at the level of the range.
func (j *JSONPath) findIn(nodes []Node, data interface{}) ([][]reflect.Value, error) {
	var all [][]reflect.Value
	input := []reflect.Value{reflect.ValueOf(data)}
	for i := 0; i < len(nodes); i++ {
		switch keyword(nodes[i]) {
		case "end":
			return nil, fmt.Errorf("not in range, nothing to end")
		case "range":
			head := nodes[i].(*ListNode)
			items, err := j.eval(input, &ListNode{NodeType: NodeList, Nodes: head.Nodes[1:]})
			if err != nil {
				return nil, err
			}
			body := nodes[i+1:]
			end := matchingEnd(body)
			body = body[:end]
			if end < len(nodes)-i-1 {
				i += end + 1
			} // else, like client-go, evaluate an unclosed body again at this level
			if len(items) == 0 {
				if _, err := j.findIn(body, nil); err != nil {
					return nil, err
				}
				continue
			}
			for _, item := range items {
				if !item.CanInterface() {
					continue
				}
				sub, err := j.findIn(body, item.Interface())
				if err != nil {
					return nil, err
				}
				all = append(all, sub...)
			}
		default:
			results, err := j.eval(input, nodes[i])
			if err != nil {
				return nil, err
			}
			all = append(all, results)
		}
	}
	return all, nil
}
