package model

import "strings"

// Tags maps a comment tag name ("genclient:method", "listType") to the values
// it was given, one per occurrence; a tag without "=" has the value "".
type Tags map[string][]string

// Has reports whether the tag occurred.
func (t Tags) Has(name string) bool {
	_, ok := t[name]
	return ok
}

// Value returns the first value of the tag, or "".
func (t Tags) Value(name string) string {
	if v := t[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// parseTags collects "+name" and "+name=value" lines from comment lines.
// Leading comment markers and spaces are ignored.
func parseTags(lines []string) Tags {
	tags := Tags{}
	for _, line := range lines {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, "//"), "/*"))
		if !strings.HasPrefix(line, "+") {
			continue
		}
		line = strings.TrimPrefix(line, "+")
		name, value, _ := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		tags[name] = append(tags[name], strings.TrimSpace(value))
	}
	return tags
}
