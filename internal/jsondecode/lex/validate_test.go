package lex

import (
	"encoding/json"
	"strings"
	"testing"
)

var validateCases = []string{
	``, ` `, `{}`, `[]`, `null`, `nul`, `nulll`, `true`, `false`, `tru`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1E-7`,
	`-1.5e+300`, `"a"`, `"`, `"\u12"`, `"\u123g"`, `"\ud800"`, `"\'"`, `"\x"`, "\"\x01\"", "\"\x7f\"", "\"\xff\"",
	`{"a":1,}`, `{"a":1 "b":2}`, `{"a" 1}`, `{1:2}`, `[1,]`, `[,1]`, `[1 2]`, `{"a":[{"b":null}]}`, ` [ 1 , 2 ] `,
	`{} x`, `{}}`, `[[]`, "\"tab\there\"", `"\/\b\f\n\r\t\\\""`, `{"a":"b"}` + "\x00",
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	`{"a":"0123456789abcdef0123456789\"abcdef"}`, `"` + strings.Repeat("x", 17) + "\x1f" + `"`,
}

func TestValidateMatchesEncodingJSON(t *testing.T) {
	for _, c := range validateCases {
		if got, want := Validate([]byte(c)) == nil, json.Valid([]byte(c)); got != want {
			t.Errorf("Validate(%.40q) valid = %v, encoding/json says %v", c, got, want)
		}
	}
}

func FuzzValidate(f *testing.F) {
	for _, c := range validateCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Validate(data) == nil, json.Valid(data); got != want {
			t.Fatalf("Validate(%q) valid = %v, encoding/json says %v", data, got, want)
		}
	})
}
