package jsonscan

// Scanner follows JSON text fed to it in pieces, from one Scan to the
// next, to find where each top-level object or array ends: it tracks how
// many objects and arrays are open, and whether it is inside a string and
// just after a backslash there. It does not check syntax: bytes between
// top-level values (whitespace, or anything malformed) are passed over, a
// string among them included, and a closing bracket with nothing open is
// ignored. The zero Scanner is at the start of a text.
type Scanner struct {
	depth    int  // objects and arrays open
	inString bool // inside a string
	escaped  bool // inside a string, just after a backslash
	held     int  // bytes of the open top-level object or array scanned
}

// structural marks the bytes the Scanner stops at outside strings.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// Scan reads p until a top-level object or array closes in it and returns
// how many bytes it read, the closing bracket included, and true; or
// len(p) and false when none closes in p. The next Scan continues where
// this one stopped: to find the end of a value in a buffer that is still
// growing, scan the bytes that arrived after those already read.
func (s *Scanner) Scan(p []byte) (n int, closed bool) {
	depth, inString, escaped := s.depth, s.inString, s.escaped
	// opened is where the open top-level value's bytes in p start.
	opened := 0
	i := 0
	for i < len(p) {
		if inString {
			if escaped {
				escaped = false
				i++
				continue
			}
			i += validLen(p, i)
			if i >= len(p) {
				break
			}
			switch p[i] {
			case '"':
				inString = false
			case '\\':
				escaped = true
			}
			i++
			continue
		}
		for i < len(p) && !structural[p[i]] {
			i++
		}
		if i >= len(p) {
			break
		}
		switch p[i] {
		case '"':
			inString = true
		case '{', '[':
			if depth == 0 {
				opened = i
			}
			depth++
		default: // '}', ']'
			if depth > 0 {
				depth--
				if depth == 0 {
					*s = Scanner{}
					return i + 1, true
				}
			}
		}
		i++
	}
	s.depth, s.inString, s.escaped = depth, inString, escaped
	if depth > 0 {
		s.held += len(p) - opened
	}
	return len(p), false
}

// Feed reads all of p, in which any number of top-level values may close.
func (s *Scanner) Feed(p []byte) {
	for len(p) > 0 {
		n, _ := s.Scan(p)
		p = p[n:]
	}
}

// Held returns how many bytes of the top-level object or array still open
// the scanner has read, its opening bracket included: zero between
// values.
func (s *Scanner) Held() int { return s.held }
