package model

import (
	"strings"
	"unicode"
)

// pluralExceptions are kinds whose plural is not formed by the usual rules.
var pluralExceptions = map[string]string{
	"Endpoints": "Endpoints",
}

// Plural returns the English plural of a kind name as clients spell it.
func Plural(kind string) string {
	if p, ok := pluralExceptions[kind]; ok {
		return p
	}
	switch {
	case kind == "":
		return ""
	case strings.HasSuffix(kind, "s"), strings.HasSuffix(kind, "x"), strings.HasSuffix(kind, "z"),
		strings.HasSuffix(kind, "ch"), strings.HasSuffix(kind, "sh"):
		return kind + "es"
	case strings.HasSuffix(kind, "y") && len(kind) > 1 && !isVowel(rune(kind[len(kind)-2])):
		return kind[:len(kind)-1] + "ies"
	}
	return kind + "s"
}

func isVowel(r rune) bool {
	return strings.ContainsRune("aeiouAEIOU", r)
}

// LowerFirst returns s with its first letter in lower case.
func LowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// UpperFirst returns s with its first letter in upper case.
func UpperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// openAPIPackageName turns an import path into the reversed-domain form the
// OpenAPI schema uses: k8s.io/api/apps/v1 becomes io.k8s.api.apps.v1. The
// rest of the path is kept as it is (github.com/a/b-c/v1 becomes
// com.github.a.b-c.v1), because a type converter finds an object's schema
// by the name runtime.Scheme.ToOpenAPIDefinitionName gives its Go type.
func openAPIPackageName(path string) string {
	parts := strings.Split(path, "/")
	host := strings.Split(parts[0], ".")
	for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
		host[i], host[j] = host[j], host[i]
	}
	return strings.Join(append(host, parts[1:]...), ".")
}
