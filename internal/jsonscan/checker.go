package jsonscan

// checker checks the syntax of one value of data from pos, recursively.
type checker struct {
	data []byte
	pos  int
	// index, when not nil, receives every object and array in document
	// order.
	index *[]Span
	// short is set when checking failed only because data ended.
	short bool
	// escapes is set when a string checked had an escape.
	escapes bool
}

// open records the container starting at c.pos and returns its index.
func (c *checker) open() int {
	if c.index == nil {
		return -1
	}
	*c.index = append(*c.index, Span{Start: int32(c.pos)})
	return len(*c.index) - 1
}

// close completes the record of container i, which ended just before
// c.pos and had n members.
func (c *checker) close(i, n int) {
	if i >= 0 {
		(*c.index)[i].End, (*c.index)[i].N = int32(c.pos), int32(n)
	}
}

// fail reports false, noting whether st says the value was only cut short.
func (c *checker) fail(st Status) bool {
	c.short = st == Short
	return false
}

// ws moves past whitespace and reports whether data goes on after it,
// noting that it is short when it does not.
func (c *checker) ws() bool {
	c.pos = SkipSpace(c.data, c.pos)
	if c.pos < len(c.data) {
		return true
	}
	c.short = true
	return false
}

func (c *checker) value(depth int) bool {
	if c.pos >= len(c.data) {
		return c.fail(Short)
	}
	switch b := c.data[c.pos]; {
	case b == '{':
		return c.object(depth + 1)
	case b == '[':
		return c.array(depth + 1)
	case b == '"':
		return c.str()
	case b == '-' || isDigit(b):
		end, _, st := Number(c.data, c.pos)
		if st != Complete {
			return c.fail(st)
		}
		c.pos = end
		return true
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	}
	return false
}

func (c *checker) literal(lit string) bool {
	if rest := c.data[c.pos:]; len(rest) < len(lit) {
		if string(rest) == lit[:len(rest)] {
			return c.fail(Short)
		}
		return false
	}
	if string(c.data[c.pos:c.pos+len(lit)]) != lit {
		return false
	}
	c.pos += len(lit)
	return true
}

func (c *checker) object(depth int) bool {
	if depth > MaxDepth {
		return false
	}
	rec := c.open()
	c.pos++ // '{'
	if !c.ws() {
		return false
	}
	if c.data[c.pos] == '}' {
		c.pos++
		c.close(rec, 0)
		return true
	}
	for n := 1; ; n++ {
		if c.data[c.pos] != '"' || !c.str() {
			return false
		}
		if !c.ws() {
			return false
		}
		if c.data[c.pos] != ':' {
			return false
		}
		c.pos++
		c.pos = SkipSpace(c.data, c.pos)
		if !c.value(depth) || !c.ws() {
			return false
		}
		switch c.data[c.pos] {
		case ',':
			c.pos++
			if !c.ws() {
				return false
			}
		case '}':
			c.pos++
			c.close(rec, n)
			return true
		default:
			return false
		}
	}
}

func (c *checker) array(depth int) bool {
	if depth > MaxDepth {
		return false
	}
	rec := c.open()
	c.pos++ // '['
	if !c.ws() {
		return false
	}
	if c.data[c.pos] == ']' {
		c.pos++
		c.close(rec, 0)
		return true
	}
	for n := 1; ; n++ {
		if !c.value(depth) || !c.ws() {
			return false
		}
		switch c.data[c.pos] {
		case ',':
			c.pos++
			c.pos = SkipSpace(c.data, c.pos)
		case ']':
			c.pos++
			c.close(rec, n)
			return true
		default:
			return false
		}
	}
}

// str checks the string whose opening quote is at c.pos (see String) and
// moves past it.
func (c *checker) str() bool {
	d := c.data
	i := c.pos + 1
	for i < len(d) {
		i += validLen(d, i)
		if i >= len(d) {
			break
		}
		switch d[i] {
		case '"':
			c.pos = i + 1
			return true
		case '\\':
			c.escapes = true
			if i+1 >= len(d) {
				return c.fail(Short)
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= len(d) {
						return c.fail(Short)
					}
					if !isHex(d[k]) {
						return false
					}
				}
				i += 6
			default:
				return false
			}
		default: // control character
			return false
		}
	}
	return c.fail(Short)
}
