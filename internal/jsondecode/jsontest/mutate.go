package jsontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
)

// Node is a JSON value whose object members keep their order and may
// repeat, so that mutations can produce duplicate keys.
type Node struct {
	kind    byte // '{', '[', or 0 for a scalar held in raw
	keys    []string
	members []*Node
	raw     string
}

func parseNode(dec *json.Decoder) (*Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &Node{kind: byte(t)}
		for dec.More() {
			if n.kind == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			m, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, m)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return n, nil
	default:
		b, _ := json.Marshal(t)
		return &Node{raw: string(b)}, nil
	}
}

// MustParse parses the JSON document data, which must be valid, keeping
// its members' order and repeated keys.
func MustParse(data []byte) *Node {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		panic(err)
	}
	return n
}

func (n *Node) write(b *strings.Builder) {
	switch n.kind {
	case '{':
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeKey(b, n.keys[i])
			b.WriteByte(':')
			m.write(b)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			m.write(b)
		}
		b.WriteByte(']')
	default:
		b.WriteString(n.raw)
	}
}

// writeKey writes k quoted; keys starting with \x00 are written with their
// letters escaped as \u00XX, which decoders must resolve before matching.
func writeKey(b *strings.Builder, k string) {
	if strings.HasPrefix(k, "\x00") {
		b.WriteByte('"')
		for _, c := range []byte(k[1:]) {
			fmt.Fprintf(b, `\u%04x`, c)
		}
		b.WriteByte('"')
		return
	}
	q, _ := json.Marshal(k)
	b.Write(q)
}

func (n *Node) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

// all returns n and its descendants.
func (n *Node) all(out []*Node) []*Node {
	out = append(out, n)
	for _, m := range n.members {
		out = m.all(out)
	}
	return out
}

func (n *Node) clone() *Node {
	c := &Node{kind: n.kind, raw: n.raw, keys: append([]string(nil), n.keys...)}
	for _, m := range n.members {
		c.members = append(c.members, m.clone())
	}
	return c
}

// replacements are values of every JSON kind, including ones no Go field
// of the API types can take.
var replacements = []string{
	`null`, `true`, `false`, `0`, `-1`, `1.5`, `1e3`, `-0`, `2147483648`, `-9223372036854775809`,
	`9223372036854775807`, `18446744073709551616`, `1e400`, `""`, `"x"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`,
	`"a\u0000b"`, `"250m"`, `"2026-11-30T09:14:27Z"`, `"not-a-time"`, `"AAEC"`, `"!!"`, `[]`, `[null]`, `[1,"a"]`, `{}`,
	`{"a":1}`, `{"name":null}`, `[{}]`, `"\/\b\f\n\r\t"`, `"\u0041"`,
}

// Mutate returns a structurally mutated copy of doc: a value replaced, a
// member duplicated, removed or renamed (case, escapes), an array grown.
func Mutate(r *rand.Rand, doc *Node) string {
	root := doc.clone()
	for range 1 + r.Intn(3) {
		nodes := root.all(nil)
		n := nodes[r.Intn(len(nodes))]
		switch r.Intn(7) {
		case 0, 1:
			*n = Node{raw: replacements[r.Intn(len(replacements))]}
		case 2:
			if len(n.members) > 0 {
				i := r.Intn(len(n.members))
				n.members = append(n.members, n.members[i].clone())
				if n.kind == '{' {
					n.keys = append(n.keys, n.keys[i])
				}
			}
		case 3:
			if n.kind == '{' && len(n.keys) > 0 {
				i := r.Intn(len(n.keys))
				n.keys = append(n.keys, n.keys[i])
				n.members = append(n.members, &Node{raw: replacements[r.Intn(len(replacements))]})
			}
		case 4:
			if n.kind == '{' && len(n.keys) > 0 {
				i := r.Intn(len(n.keys))
				switch k := n.keys[i]; r.Intn(3) {
				case 0:
					if k != "" {
						n.keys[i] = strings.ToUpper(k[:1]) + k[1:]
					}
				case 1:
					n.keys[i] = "\x00" + k
				default:
					n.keys[i] = k + "\u00e9"
				}
			}
		case 5:
			if len(n.members) > 0 {
				i := r.Intn(len(n.members))
				n.members = append(n.members[:i], n.members[i+1:]...)
				if n.kind == '{' {
					n.keys = append(n.keys[:i], n.keys[i+1:]...)
				}
			}
		case 6:
			if n.kind == '[' {
				n.members = append(n.members, &Node{raw: replacements[r.Intn(len(replacements))]})
			}
		}
	}
	return root.String()
}

// Corrupt damages the bytes of a document: truncation, a byte removed,
// replaced or inserted, invalid UTF-8 inside strings.
func Corrupt(r *rand.Rand, data string) string {
	if len(data) == 0 {
		return data
	}
	i := r.Intn(len(data))
	switch r.Intn(5) {
	case 0:
		return data[:i]
	case 1:
		return data[:i] + data[i+1:]
	case 2:
		return data[:i] + string("{}[],:\"\\ntf0-e."[r.Intn(15)]) + data[i+1:]
	case 3:
		return data[:i] + "\xff\xc3" + data[i:]
	default:
		return data[:i] + " " + strconv.Itoa(r.Intn(10)) + data[i:]
	}
}
