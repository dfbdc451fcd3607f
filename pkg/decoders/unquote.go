package decoders

import "github.com/kubeclient/client-go/internal/jsonscan"

// AppendUnquoted appends the string the JSON string body raw (validated,
// without quotes) denotes, as encoding/json unquotes it: escapes resolved,
// an invalid UTF-16 surrogate (lone or badly paired) and every byte of
// invalid UTF-8 replaced by U+FFFD.
func AppendUnquoted(dst, raw []byte) []byte {
	return jsonscan.AppendUnquoted(dst, raw)
}

// StringEnd checks the string literal whose opening quote is at data[i]
// as encoding/json's scanner does and returns the offset after its
// closing quote; ok is false when it is malformed or cut short.
func StringEnd(data []byte, i int) (end int, ok bool) {
	end, _, st := jsonscan.String(data, i)
	return end, st == jsonscan.Complete
}
