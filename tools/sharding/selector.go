package sharding

import (
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Range is a half-open interval [Start, End) of the 64-bit hash space. End
// zero stands for 2^64, the top of the space, so Range{} is the whole space.
type Range struct {
	Start uint64
	End   uint64
}

// Contains reports whether h lies in r.
func (r Range) Contains(h uint64) bool {
	return h >= r.Start && (r.End == 0 || h < r.End)
}

// Size returns the number of hash values in r; the whole space reports
// 2^64-1.
func (r Range) Size() uint64 {
	if r.End == 0 {
		if r.Start == 0 {
			return ^uint64(0)
		}
		return -r.Start
	}
	return r.End - r.Start
}

// valid reports whether r is non-empty.
func (r Range) valid() bool { return r.End == 0 || r.Start < r.End }

// hexBound formats a range bound as kube-apiserver expects it: 0x and 16
// lowercase hex digits, or 0x10000000000000000 for the top of the space.
func hexBound(v uint64, top bool) string {
	if top {
		return "0x10000000000000000"
	}
	return fmt.Sprintf("0x%016x", v)
}

// String returns r as the two quoted bounds of a shardRange call.
func (r Range) String() string {
	return "'" + hexBound(r.Start, false) + "', '" + hexBound(r.End, r.End == 0) + "'"
}

// Selector selects the objects whose key hashes into one of its ranges. A
// Selector without ranges selects nothing; it has no wire form (an empty
// shardSelector asks the server for everything), so String returns "" and
// ApplyTo refuses it.
type Selector struct {
	Key    Key
	Ranges []Range
}

// Empty reports whether s selects nothing.
func (s Selector) Empty() bool { return len(s.Ranges) == 0 }

// Contains reports whether hash h is selected.
func (s Selector) Contains(h uint64) bool {
	for _, r := range s.Ranges {
		if r.Contains(h) {
			return true
		}
	}
	return false
}

// Matches reports whether obj's key hashes into s.
func (s Selector) Matches(obj any) (bool, error) {
	h, err := ObjectHash(obj, s.Key)
	if err != nil {
		return false, err
	}
	return s.Contains(h), nil
}

// String returns s in the form kube-apiserver takes in
// ListOptions.ShardSelector and echoes in ListMeta.ShardInfo: one
// shardRange call per range, in order, joined with " || ".
func (s Selector) String() string {
	parts := make([]string, len(s.Ranges))
	for i, r := range s.Ranges {
		parts[i] = "shardRange(" + string(s.Key) + ", " + r.String() + ")"
	}
	return strings.Join(parts, " || ")
}

// ApplyTo sets opts.ShardSelector to s. It fails for an empty selector or
// an invalid key, which the server would read as "everything" or refuse.
func (s Selector) ApplyTo(opts *metav1.ListOptions) error {
	if err := s.validate(); err != nil {
		return err
	}
	opts.ShardSelector = s.String()
	return nil
}

func (s Selector) validate() error {
	if !s.Key.Valid() {
		return fmt.Errorf("sharding: unsupported key %q", s.Key)
	}
	if s.Empty() {
		return fmt.Errorf("sharding: empty selector selects nothing and has no wire form")
	}
	for _, r := range s.Ranges {
		if !r.valid() {
			return fmt.Errorf("sharding: empty range %s", r)
		}
	}
	return nil
}

// ParseSelector reads a shard selector in the form String writes: one or
// more shardRange(field, 'start', 'end') calls joined with ||, white space
// allowed between tokens, the strings in single or double quotes. It
// applies kube-apiserver's rules: the field is object.metadata.uid or
// object.metadata.namespace, the same in every call; each bound is 0x and
// exactly 16 lowercase hex digits, or 0x10000000000000000; start < end.
// The server reads general CEL (parentheses, for example); ParseSelector
// reads only this form.
func ParseSelector(in string) (Selector, error) {
	p := selectorParser{in: in}
	var sel Selector
	for {
		key, r, err := p.call()
		if err != nil {
			return Selector{}, err
		}
		if len(sel.Ranges) > 0 && key != sel.Key {
			return Selector{}, fmt.Errorf("sharding: all shard ranges must use the same field, got %q and %q", sel.Key, key)
		}
		sel.Key = key
		sel.Ranges = append(sel.Ranges, r)
		p.space()
		if p.done() {
			return sel, nil
		}
		if !p.literal("||") {
			return Selector{}, p.errorf("expected || or the end")
		}
	}
}

// selectorParser reads ParseSelector's grammar; pos is the next byte.
type selectorParser struct {
	in  string
	pos int
}

func (p *selectorParser) errorf(format string, args ...any) error {
	return fmt.Errorf("sharding: shard selector at byte %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *selectorParser) done() bool { return p.pos >= len(p.in) }

func (p *selectorParser) space() {
	for p.pos < len(p.in) && strings.IndexByte(" \t\r\n", p.in[p.pos]) >= 0 {
		p.pos++
	}
}

// literal consumes lit after optional white space.
func (p *selectorParser) literal(lit string) bool {
	p.space()
	if strings.HasPrefix(p.in[p.pos:], lit) {
		p.pos += len(lit)
		return true
	}
	return false
}

func (p *selectorParser) call() (Key, Range, error) {
	if !p.literal("shardRange") || !p.literal("(") {
		return "", Range{}, p.errorf("expected shardRange(")
	}
	key, err := p.field()
	if err != nil {
		return "", Range{}, err
	}
	if !p.literal(",") {
		return "", Range{}, p.errorf("expected ,")
	}
	start, startTop, err := p.bound("hexStart")
	if err != nil {
		return "", Range{}, err
	}
	if !p.literal(",") {
		return "", Range{}, p.errorf("expected ,")
	}
	end, endTop, err := p.bound("hexEnd")
	if err != nil {
		return "", Range{}, err
	}
	if !p.literal(")") {
		return "", Range{}, p.errorf("expected )")
	}
	// start < end, with the top of the space above every 16-digit value.
	if startTop || (!endTop && start >= end) {
		return "", Range{}, p.errorf("shard range start must be less than end")
	}
	if endTop {
		end = 0
	}
	return key, Range{Start: start, End: end}, nil
}

// field reads a dotted identifier path.
func (p *selectorParser) field() (Key, error) {
	p.space()
	begin := p.pos
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		if c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	k := Key(p.in[begin:p.pos])
	if !k.Valid() {
		return "", p.errorf("unsupported field path %q; supported: %s, %s", k, KeyUID, KeyNamespace)
	}
	return k, nil
}

// bound reads a quoted hex bound; top reports 0x10000000000000000.
func (p *selectorParser) bound(name string) (v uint64, top bool, err error) {
	p.space()
	if p.done() || (p.in[p.pos] != '\'' && p.in[p.pos] != '"') {
		return 0, false, p.errorf("%s must be a string literal", name)
	}
	quote := p.in[p.pos]
	closing := strings.IndexByte(p.in[p.pos+1:], quote)
	if closing < 0 {
		return 0, false, p.errorf("unterminated string")
	}
	s := p.in[p.pos+1 : p.pos+1+closing]
	p.pos += closing + 2
	if s == "0x10000000000000000" {
		return 0, true, nil
	}
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok || len(digits) != 16 {
		return 0, false, p.errorf("%s must be a 0x-prefixed 16-digit hex value, got %q", name, s)
	}
	for i := 0; i < len(digits); i++ {
		if c := digits[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return 0, false, p.errorf("%s: invalid hex character %q in %q", name, c, s)
		}
	}
	v, err = strconv.ParseUint(digits, 16, 64)
	if err != nil {
		return 0, false, p.errorf("%s: %v", name, err)
	}
	return v, false, nil
}
