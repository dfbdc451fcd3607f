package jsonpath

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrSyntax is returned by UnquoteExtend for a malformed quoted string.
var (
	ErrSyntax = errors.New("invalid syntax")
)

// Parser turns a template into a tree of nodes rooted at Root: a TextNode for
// each run of plain text and a ListNode for each {action}.
type Parser struct {
	Name string
	Root *ListNode

	input string
	pos   int
}

// NewParser returns an empty parser called name.
func NewParser(name string) *Parser {
	return &Parser{Name: name}
}

// Parse parses text into a new Parser. On error it returns an empty Parser
// (with only the name set) together with the error.
func Parse(name, text string) (*Parser, error) {
	p := NewParser(name)
	if err := p.Parse(text); err != nil {
		return NewParser(name), err
	}
	return p, nil
}

// Parse replaces p's tree with the tree of text.
func (p *Parser) Parse(text string) error {
	p.input = text
	p.pos = 0
	p.Root = newList()
	for p.pos < len(p.input) {
		open := strings.IndexByte(p.input[p.pos:], '{')
		if open < 0 {
			p.Root.append(&TextNode{NodeType: NodeText, Text: p.input[p.pos:]})
			p.pos = len(p.input)
			break
		}
		if open > 0 {
			p.Root.append(&TextNode{NodeType: NodeText, Text: p.input[p.pos : p.pos+open]})
		}
		p.pos += open + 1
		action := newList()
		p.Root.append(action)
		if err := p.parseAction(action, true); err != nil {
			return err
		}
	}
	return nil
}

func (p *Parser) rest() string { return p.input[p.pos:] }

func (p *Parser) peek() rune {
	if p.pos >= len(p.input) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(p.rest())
	return r
}

func (p *Parser) next() rune {
	if p.pos >= len(p.input) {
		return -1
	}
	r, w := utf8.DecodeRuneInString(p.rest())
	p.pos += w
	return r
}

// parseAction parses the inside of an action into cur. When braced is true the
// action must end with '}', which is consumed; otherwise it ends with the input.
func (p *Parser) parseAction(cur *ListNode, braced bool) error {
	for {
		rest := p.rest()
		switch {
		case braced && strings.HasPrefix(rest, "}"):
			p.pos++
			return nil
		case !braced && rest == "":
			return nil
		case strings.HasPrefix(rest, "[?("):
			if err := p.parseFilter(cur); err != nil {
				return err
			}
			continue
		case strings.HasPrefix(rest, ".."):
			if n := len(cur.Nodes); n > 0 && cur.Nodes[n-1].Type() == NodeRecursive {
				return fmt.Errorf("invalid multiple recursive descent")
			}
			p.pos += 2
			cur.append(&RecursiveNode{NodeType: NodeRecursive})
			if isAlphaNumeric(p.peek()) {
				p.parseField(cur)
			}
			continue
		}
		r := p.next()
		var err error
		switch {
		case r == -1 || r == '\n' || r == '\r':
			return fmt.Errorf("unclosed action")
		case r == ' ' || r == '\t' || r == '@' || r == '$':
		case r == '[':
			err = p.parseArray(cur)
		case r == '"' || r == '\'':
			err = p.parseQuote(cur, r)
		case r == '.':
			p.parseField(cur)
		case r == '+' || r == '-' || unicode.IsDigit(r):
			p.pos -= utf8.RuneLen(r)
			err = p.parseNumber(cur)
		case isAlphaNumeric(r):
			p.pos -= utf8.RuneLen(r)
			p.parseIdentifier(cur)
		default:
			return fmt.Errorf("unrecognized character in action: %#U", r)
		}
		if err != nil {
			return err
		}
	}
}

// scanName reads up to the next unescaped terminator.
func (p *Parser) scanName() string {
	start := p.pos
	for p.pos < len(p.input) {
		r := p.peek()
		if r == '\\' {
			p.next()
			p.next()
			continue
		}
		if isTerminator(r) {
			break
		}
		p.next()
	}
	return p.input[start:p.pos]
}

func (p *Parser) parseField(cur *ListNode) {
	name := p.scanName()
	if name == "*" {
		cur.append(&WildcardNode{NodeType: NodeWildcard})
		return
	}
	cur.append(&FieldNode{NodeType: NodeField, Value: strings.ReplaceAll(name, `\`, "")})
}

func (p *Parser) parseIdentifier(cur *ListNode) {
	name := p.scanName()
	switch name {
	case "true", "false":
		cur.append(&BoolNode{NodeType: NodeBool, Value: name == "true"})
	default:
		cur.append(&IdentifierNode{NodeType: NodeIdentifier, Name: name})
	}
}

func (p *Parser) parseNumber(cur *ListNode) error {
	start := p.pos
	if r := p.peek(); r == '+' || r == '-' {
		p.next()
	}
	for r := p.peek(); r == '.' || (r >= 0 && unicode.IsDigit(r)); r = p.peek() {
		p.next()
	}
	text := p.input[start:p.pos]
	if i, err := strconv.Atoi(text); err == nil {
		cur.append(&IntNode{NodeType: NodeInt, Value: i})
		return nil
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		cur.append(&FloatNode{NodeType: NodeFloat, Value: f})
		return nil
	}
	return fmt.Errorf("cannot parse number %s", text)
}

// scanQuoted returns the index just past the quote closing the string that
// starts at s[0], or -1.
func scanQuoted(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return -1
}

func (p *Parser) parseQuote(cur *ListNode, quote rune) error {
	start := p.pos - 1
	end := scanQuoted(p.input[start:])
	if end < 0 {
		return fmt.Errorf("unterminated quoted string")
	}
	raw := p.input[start : start+end]
	p.pos = start + end
	text, err := UnquoteExtend(raw)
	if err != nil {
		return fmt.Errorf("unquote string %s error %v", raw, err)
	}
	cur.append(&TextNode{NodeType: NodeText, Text: text})
	return nil
}

// closingBracket finds the ']' closing the bracket whose contents start at
// s[0], skipping quoted strings and nested brackets, or returns -1.
func closingBracket(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"':
			n := scanQuoted(s[i:])
			if n < 0 {
				return -1
			}
			i += n - 1
		case '[':
			depth++
		case ']':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// splitTopLevel splits s at commas outside quotes and brackets.
func splitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"':
			if n := scanQuoted(s[i:]); n > 0 {
				i += n - 1
			}
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// parseArray parses the bracket expression after '[': an index, a slice, a
// wildcard, a quoted key or a comma separated union of those.
func (p *Parser) parseArray(cur *ListNode) error {
	end := closingBracket(p.rest())
	if end < 0 {
		return fmt.Errorf("unterminated array")
	}
	body := p.rest()[:end]
	p.pos += end + 1

	if parts := splitTopLevel(body); len(parts) > 1 {
		union := &UnionNode{NodeType: NodeUnion}
		for _, part := range parts {
			sub := &Parser{Name: p.Name, input: "[" + strings.Trim(part, " ") + "]"}
			list := newList()
			if err := sub.parseAction(list, false); err != nil {
				return err
			}
			union.Nodes = append(union.Nodes, list)
		}
		cur.append(union)
		return nil
	}

	if body == "*" {
		body = ":"
	}
	// A single quoted key is a field path relative to the current value, so
	// ['a\.b'] is the key "a.b" and ['a.b'] the field b of a.
	if len(body) >= 2 && body[0] == '\'' && body[len(body)-1] == '\'' && !strings.Contains(body[1:len(body)-1], "'") {
		sub := &Parser{Name: p.Name, input: "." + body[1:len(body)-1]}
		if err := sub.parseAction(cur, false); err != nil {
			return err
		}
		return nil
	}
	node, err := parseSlice(body)
	if err != nil {
		return err
	}
	cur.append(node)
	return nil
}

// parseSlice parses an index expression "start:end:step" whose parts are
// optional integers: "i" selects [i:i+1] (and "" is "0"), an omitted end
// or start means the whole list.
func parseSlice(body string) (*ArrayNode, error) {
	parts := strings.Split(body, ":")
	if len(parts) > 3 {
		return nil, fmt.Errorf("invalid array index %s", body)
	}
	for _, part := range parts {
		if digits := strings.TrimPrefix(part, "-"); strings.TrimLeft(digits, "0123456789") != "" {
			return nil, fmt.Errorf("invalid array index %s", body)
		}
	}
	node := &ArrayNode{NodeType: NodeArray}
	for i, part := range parts {
		if part == "" {
			continue
		}
		v, err := strconv.Atoi(part)
		if err != nil {
			return nil, fmt.Errorf("array index %s is not a number", part)
		}
		node.Params[i] = ParamsEntry{Value: v, Known: true}
	}
	if len(parts) == 1 {
		node.Params[1] = ParamsEntry{Value: node.Params[0].Value + 1, Known: true, Derived: true}
	}
	return node, nil
}

func isOperatorByte(c byte) bool { return c == '!' || c == '<' || c == '>' || c == '=' }

// parseFilter parses "[?(left op right)]" or the existence test "[?(left)]".
func (p *Parser) parseFilter(cur *ListNode) error {
	p.pos += len("[?(")
	s := p.rest()
	depth, end := 0, -1
scan:
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"':
			n := scanQuoted(s[i:])
			if n < 0 {
				return fmt.Errorf("unterminated filter")
			}
			i += n - 1
		case '(':
			depth++
		case ')':
			if depth == 0 {
				end = i
				break scan
			}
			depth--
		}
	}
	if end < 0 {
		return fmt.Errorf("unterminated filter")
	}
	expr := s[:end]
	p.pos += end + 1
	if p.peek() != ']' {
		return fmt.Errorf("unclosed array expect ]")
	}
	p.pos++

	leftText, op, rightText := splitFilter(expr)
	left, err := parseOperand(p.Name, leftText)
	if err != nil {
		return err
	}
	right := newList()
	if op == "" {
		op = "exists"
	} else if right, err = parseOperand(p.Name, rightText); err != nil {
		return err
	}
	cur.append(&FilterNode{NodeType: NodeFilter, Left: left, Right: right, Operator: op})
	return nil
}

// splitFilter splits expr at the first run of comparison characters (!<>=)
// outside quotes; an unknown run such as "=" is left for evaluation to reject.
func splitFilter(expr string) (left, op, right string) {
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		if c == '\'' || c == '"' {
			if n := scanQuoted(expr[i:]); n > 0 {
				i += n - 1
			}
			continue
		}
		if isOperatorByte(c) && i > 0 {
			end := i
			for end < len(expr) && isOperatorByte(expr[end]) {
				end++
			}
			return strings.TrimSpace(expr[:i]), expr[i:end], strings.TrimSpace(expr[end:])
		}
	}
	return strings.TrimSpace(expr), "", ""
}

func parseOperand(name, text string) (*ListNode, error) {
	sub := &Parser{Name: name, input: text}
	list := newList()
	if err := sub.parseAction(list, false); err != nil {
		return nil, err
	}
	return list, nil
}

func isTerminator(r rune) bool {
	switch r {
	case -1, ' ', '\t', '\r', '\n', '.', ',', '[', ']', '$', '@', '{', '}':
		return true
	}
	return false
}

func isAlphaNumeric(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// UnquoteExtend is strconv.Unquote extended to accept strings in single
// quotes, in which a double quote needs no escaping and \' is a single quote.
func UnquoteExtend(s string) (string, error) {
	if len(s) < 2 {
		return "", ErrSyntax
	}
	first, last := s[0], s[len(s)-1]
	if first != last || (first != '"' && first != '\'') {
		return "", ErrSyntax
	}
	if first == '"' {
		return strconv.Unquote(s)
	}
	// Rewrite 'x' into an equivalent double quoted string.
	var b strings.Builder
	b.WriteByte('"')
	inner := s[1 : len(s)-1]
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		switch {
		case c == '\\' && i+1 < len(inner) && inner[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\\' && i+1 < len(inner):
			b.WriteByte(c)
			b.WriteByte(inner[i+1])
			i++
		case c == '"':
			b.WriteString(`\"`)
		case c == '\'':
			return "", ErrSyntax
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return strconv.Unquote(b.String())
}
