package wirecodec

import "github.com/kubeclient/client-go/internal/jsondecode/lex"

// apimachinery's JSON serializer learns the apiVersion and kind of a
// document by decoding all of it with encoding/json into a struct of those
// two fields. peekTypeMeta reads the same two strings from the top-level
// members of a document lex.Index has validated and indexed, allocating
// nothing; the object is then decoded from the same index.
//
// encoding/json matches member names to fields without regard to case,
// Unicode folding included (the Kelvin sign K matches "k"), lets the last
// matching member win, leaves a field unchanged for null and fails on any
// other non-string value. peekTypeMeta handles the plain cases itself and
// gives up (ok false) on everything else: a name with escapes or non-ASCII
// bytes, a matching member whose value is not a plain ASCII string or null,
// a document that is not an object.

// peekTypeMeta returns the apiVersion and kind members of the document of
// l, raw (a plain string's bytes are its value). ok is false when the
// answer needs the reference decoder. It reads l from its start and leaves
// it anywhere.
func peekTypeMeta(l *lex.Lexer) (apiVersion, kind []byte, ok bool) {
	l.Rewind()
	if l.Next() != '{' {
		return nil, nil, false
	}
	l.OpenObject()
	for {
		name, plain, more := l.Member()
		if !more {
			return apiVersion, kind, true
		}
		if !plain {
			return nil, nil, false
		}
		var field *[]byte
		switch {
		case lex.ASCIIEqualFold(name, "apiversion"):
			field = &apiVersion
		case lex.ASCIIEqualFold(name, "kind"):
			field = &kind
		default:
			l.Skip()
			continue
		}
		value := l.Raw()
		switch {
		case string(value) == "null":
		case value[0] == '"' && lex.ASCIIPlain(value[1:len(value)-1]):
			*field = value[1 : len(value)-1]
		default:
			return nil, nil, false
		}
	}
}
