package jsonpath

import "fmt"

// NodeType identifies the type of a parse tree node.
type NodeType int

// Type returns t itself, so that node structs embedding a NodeType satisfy
// Node's Type method for free.
func (t NodeType) Type() NodeType { return t }

func (t NodeType) String() string { return NodeTypeName[t] }

// The kinds of parse tree nodes.
const (
	NodeText NodeType = iota
	NodeArray
	NodeList
	NodeField
	NodeIdentifier
	NodeFilter
	NodeInt
	NodeFloat
	NodeWildcard
	NodeRecursive
	NodeUnion
	NodeBool
)

// NodeTypeName maps each NodeType to its printable name.
var NodeTypeName = map[NodeType]string{
	NodeText:       "NodeText",
	NodeArray:      "NodeArray",
	NodeList:       "NodeList",
	NodeField:      "NodeField",
	NodeIdentifier: "NodeIdentifier",
	NodeFilter:     "NodeFilter",
	NodeInt:        "NodeInt",
	NodeFloat:      "NodeFloat",
	NodeWildcard:   "NodeWildcard",
	NodeRecursive:  "NodeRecursive",
	NodeUnion:      "NodeUnion",
	NodeBool:       "NodeBool",
}

// Node is an element of the parse tree.
type Node interface {
	Type() NodeType
	String() string
}

// ListNode is a sequence of nodes evaluated one after another, each on the
// results of the previous one.
type ListNode struct {
	NodeType
	Nodes []Node // children, in the order they appear in the template
}

func newList() *ListNode { return &ListNode{NodeType: NodeList} }

func (l *ListNode) append(n Node) { l.Nodes = append(l.Nodes, n) }

func (l *ListNode) String() string { return l.Type().String() }

// TextNode is literal text, printed as is.
type TextNode struct {
	NodeType
	Text string // literal text, newlines included
}

func (t *TextNode) String() string { return fmt.Sprintf("%s: %s", t.Type(), t.Text) }

// FieldNode selects a struct field (by JSON name) or a map key.
type FieldNode struct {
	NodeType
	Value string
}

func (f *FieldNode) String() string { return fmt.Sprintf("%s: %s", f.Type(), f.Value) }

// IdentifierNode is a keyword such as range or end.
type IdentifierNode struct {
	NodeType
	Name string
}

func (f *IdentifierNode) String() string { return fmt.Sprintf("%s: %s", f.Type(), f.Name) }

// ParamsEntry is one of the start, end and step parameters of an ArrayNode.
type ParamsEntry struct {
	Value   int
	Known   bool // Value was given in the template
	Derived bool
}

// ArrayNode selects elements of an array or slice by index or slice range.
type ArrayNode struct {
	NodeType
	Params [3]ParamsEntry // the slice's start, end and step
}

func (a *ArrayNode) String() string { return fmt.Sprintf("%s: %v", a.Type(), a.Params) }

// FilterNode keeps the elements of a list for which Left Operator Right holds.
type FilterNode struct {
	NodeType
	Left     *ListNode
	Right    *ListNode
	Operator string
}

func (f *FilterNode) String() string {
	return fmt.Sprintf("%s: %s %s %s", f.Type(), f.Left, f.Operator, f.Right)
}

// IntNode is an integer literal.
type IntNode struct {
	NodeType
	Value int
}

func (i *IntNode) String() string { return fmt.Sprintf("%s: %d", i.Type(), i.Value) }

// FloatNode is a floating point literal.
type FloatNode struct {
	NodeType
	Value float64
}

func (i *FloatNode) String() string { return fmt.Sprintf("%s: %f", i.Type(), i.Value) }

// WildcardNode selects every element, field or map value.
type WildcardNode struct {
	NodeType
}

func (i *WildcardNode) String() string { return i.Type().String() }

// RecursiveNode is the recursive descent operator "..".
type RecursiveNode struct {
	NodeType
}

func (r *RecursiveNode) String() string { return r.Type().String() }

// UnionNode is the union of the results of several lists.
type UnionNode struct {
	NodeType
	Nodes []*ListNode
}

func (u *UnionNode) String() string { return u.Type().String() }

// BoolNode is a true or false literal.
type BoolNode struct {
	NodeType
	Value bool
}

func (b *BoolNode) String() string { return fmt.Sprintf("%s: %t", b.Type(), b.Value) }
