package protodecode

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/kubeclient/client-go/internal/apifill"
)

// FuzzInto decodes arbitrary bytes as every generated type with Into (plus
// the fallback) and with the type's own Unmarshal, and requires equal
// objects and errors. The seed corpus is random objects of each type; the
// normal test run goes through the seeds only (go test -fuzz=FuzzInto for
// more).
func FuzzInto(f *testing.F) {
	types := generatedTypes()
	for i, proto := range types {
		src := reflect.New(reflect.TypeOf(proto).Elem()).Interface().(message)
		apifill.NewFiller(int64(i)).Fill(src)
		data, err := src.Marshal()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint16(i), data)
	}
	f.Add(uint16(0), []byte{0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01})
	f.Fuzz(func(t *testing.T, which uint16, data []byte) {
		if slowQuantity(data) {
			// resource.ParseQuantity, which both decoders call, takes
			// minutes on exponents like 1e-999999999.
			t.Skip()
		}
		typ := reflect.TypeOf(types[int(which)%len(types)]).Elem()
		compare(t, data, typ, reflect.New(typ).Interface().(message), "fuzz")
	})
}

// slowQuantity reports data holding a negative decimal exponent.
func slowQuantity(data []byte) bool {
	return bytes.Contains(data, []byte("e-")) || bytes.Contains(data, []byte("E-"))
}
