package transport

import "strings"

// headerKeyEscape makes an extra-attribute key usable in a header name:
// every byte that is not an RFC 7230 token character, and '%' itself, is
// percent-encoded as %XX with uppercase hex. The API server reverses this
// with url.PathUnescape, which is why a literal '%' must be encoded too.
func headerKeyEscape(key string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(key))
	for i := 0; i < len(key); i++ {
		c := key[i]
		if isHeaderTokenByte(c) && c != '%' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0x0f])
	}
	return b.String()
}

// isHeaderTokenByte reports whether c is a "tchar" of RFC 7230 section 3.2.6:
// letters, digits and !#$%&'*+-.^_`|~.
func isHeaderTokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
