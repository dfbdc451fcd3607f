package wirecodec

// apimachinery's JSON serializer learns the apiVersion and kind of a
// document by decoding all of it with encoding/json into a struct of those
// two fields. peekTypeMeta finds the same two strings with the syntax
// checker of scan.go, allocating only the strings it returns.
//
// encoding/json matches member names to fields without regard to case,
// Unicode folding included (the Kelvin sign K matches "k"), lets the last
// matching member win, leaves a field unchanged for null and fails on any
// other non-string value. peekTypeMeta handles the plain cases itself and
// gives up (ok false) on everything else: a name with escapes or non-ASCII
// bytes, a matching member whose value is not a plain ASCII string or null,
// a document that is not one well-formed object.

// peekTypeMeta returns the apiVersion and kind members of the JSON object
// data, raw (a plain string's bytes are its value). ok is false when the
// answer needs the reference decoder.
func peekTypeMeta(data []byte) (apiVersion, kind []byte, ok bool) {
	ok = true
	end, st := ScanObject(data, 0, func(m Member) {
		if m.Flags != 0 {
			ok = false
			return
		}
		var field *[]byte
		switch {
		case ASCIIEqualFold(m.Name, "apiversion"):
			field = &apiVersion
		case ASCIIEqualFold(m.Name, "kind"):
			field = &kind
		default:
			return
		}
		switch {
		case string(m.Value) == "null":
		case m.Value[0] == '"' && plainString(m.Value):
			*field = m.Value[1 : len(m.Value)-1]
		default:
			ok = false
		}
	})
	if !ok || st != Complete || skipSpace(data, end) != len(data) {
		return nil, nil, false
	}
	return apiVersion, kind, true
}

// ASCIIEqualFold reports whether name equals lower (all lower-case ASCII
// letters) ignoring ASCII case.
func ASCIIEqualFold(name []byte, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i, c := range name {
		if c|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// plainString reports whether the well-formed string literal lit has
// neither escapes nor non-ASCII bytes, so its bytes are its value.
func plainString(lit []byte) bool {
	for _, c := range lit[1 : len(lit)-1] {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}
