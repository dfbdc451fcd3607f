package unstructuredjson

import (
	"strconv"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/jsonscan"
)

// The decoder's readers of member names, strings and numbers: jsonscan
// checks each token and finds its end (or, in a document checked already,
// only finds its end), and they make the value.

// memberNames is the process-wide string table member names are read
// into: a name repeated in the document or across documents (every item
// of a list has "metadata", "name", ...) is allocated once, and an
// informer's cache finds it interned already.
var memberNames = intern.SharedStrings()

// maxSharedName is the longest member name read through memberNames.
const maxSharedName = 40

// stringValues is the process-wide table of boxed strings values are read
// into, so that a value repeated across documents (an image, a label, a
// namespace) is allocated once, box included, and an informer's cache
// finds it shared already.
var stringValues = intern.SharedBoxedStrings()

// rawString checks the string literal opening at d.i (unless the
// document is checked already), moves past it and returns the bytes
// between its quotes; plain reports that they are its value.
func (d *decoder) rawString() (raw []byte, plain, ok bool) {
	var end int
	if d.checked {
		end, plain = jsonscan.SkipString(d.data, d.i)
	} else {
		var st jsonscan.Status
		if end, plain, st = jsonscan.String(d.data, d.i); st != jsonscan.Complete {
			return nil, false, false
		}
	}
	raw = d.data[d.i+1 : end-1]
	d.i = end
	return raw, plain, true
}

// unquote returns the value of the string whose bytes between the quotes
// are raw.
func unquote(raw []byte, plain bool) string {
	if plain {
		return string(raw)
	}
	return string(jsonscan.AppendUnquoted(make([]byte, 0, len(raw)), raw))
}

// name decodes the member name opening at d.i, reusing the string of an
// equal name decoded before when there is one.
func (d *decoder) name() (string, bool) {
	raw, plain, ok := d.rawString()
	switch {
	case !ok:
		return "", false
	case plain && len(raw) <= maxSharedName:
		return memberNames.FromBytes(raw), true
	}
	return unquote(raw, plain), true
}

// string decodes the string literal opening at d.i.
func (d *decoder) string() (string, bool) {
	raw, plain, ok := d.rawString()
	if !ok {
		return "", false
	}
	return unquote(raw, plain), true
}

// sharedString decodes the string literal opening at d.i into an
// interface, the table's when the literal needs no unquoting.
func (d *decoder) sharedString() (any, bool) {
	raw, plain, ok := d.rawString()
	switch {
	case !ok:
		return nil, false
	case plain:
		return stringValues.FromBytes(raw), true
	}
	return unquote(raw, plain), true
}

// number decodes the number at d.i: int64 when the literal has neither
// fraction nor exponent and fits, float64 otherwise.
func (d *decoder) number() (any, bool) {
	start := d.i
	var end int
	var integer bool
	if d.checked {
		end, integer = jsonscan.SkipNumber(d.data, start)
	} else {
		var st jsonscan.Status
		if end, integer, st = jsonscan.Number(d.data, start); st != jsonscan.Complete {
			return nil, false
		}
	}
	d.i = end
	lit := d.data[start:end]
	if integer {
		digits := lit
		if digits[0] == '-' {
			digits = digits[1:]
		}
		if len(digits) <= 18 {
			// At most 18 digits always fit in an int64.
			var n int64
			for _, c := range digits {
				n = n*10 + int64(c-'0')
			}
			if len(digits) != len(lit) {
				n = -n
			}
			return n, true
		}
		if n, err := strconv.ParseInt(string(lit), 10, 64); err == nil {
			return n, true
		}
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return nil, false
	}
	return f, true
}
