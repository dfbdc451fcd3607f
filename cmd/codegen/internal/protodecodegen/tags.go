package protodecodegen

import (
	"reflect"
	"strconv"
	"strings"
)

// protoTag is the part of a protobuf struct tag the decoders take: the
// field number.
type protoTag struct {
	num int
}

// parseTag reads the protobuf tag of a struct field; ok is false when it
// has none or it is malformed.
func parseTag(tag string) (protoTag, bool) {
	v, ok := reflect.StructTag(tag).Lookup("protobuf")
	if !ok || v == "-" {
		return protoTag{}, false
	}
	parts := strings.Split(v, ",")
	if len(parts) < 2 {
		return protoTag{}, false
	}
	num, err := strconv.Atoi(parts[1])
	if err != nil || num <= 0 {
		return protoTag{}, false
	}
	return protoTag{num: num}, true
}
