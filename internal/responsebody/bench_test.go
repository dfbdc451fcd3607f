package responsebody

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkReadBody reads a 3 MB body (a page of a paginated LIST) of
// unknown and of declared length, against io.ReadAll.
func BenchmarkReadBody(b *testing.B) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 3<<16)
	readers := []struct {
		name string
		read func(r io.Reader) ([]byte, error)
	}{
		{"io.ReadAll", io.ReadAll},
		{"unknown length", func(r io.Reader) ([]byte, error) { return readBody(r, -1, 0) }},
		{"unknown length, hinted", func(r io.Reader) ([]byte, error) { return readBody(r, -1, len(body)+len(body)/16) }},
		{"declared length", func(r io.Reader) ([]byte, error) { return readBody(r, int64(len(body)), 0) }},
	}
	for _, rd := range readers {
		b.Run(rd.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := rd.read(bytes.NewReader(body)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
