package responsebody

import (
	"bytes"
	"testing"
)

// TestFrameScanners feeds the scanners a stream byte by byte: partial is
// zero exactly at frame boundaries.
func TestFrameScanners(t *testing.T) {
	json := []byte(`{"a":"}\"{[","b":[{}]}` + "\n" + `{"c":1}`)
	s := &jsonFrameScanner{}
	for i, c := range json {
		s.scan([]byte{c})
		atBoundary := i == bytes.IndexByte(json, '\n')-1 || i == bytes.IndexByte(json, '\n') || i == len(json)-1
		if (s.partial() == 0) != atBoundary {
			t.Errorf("json byte %d (%q): partial %d", i, c, s.partial())
		}
	}

	frames := []byte{0, 0, 0, 2, 'a', 'b', 0, 0, 0, 0, 0, 0, 0, 1, 'c'}
	boundaries := map[int]bool{5: true, 9: true, 14: true}
	p := &lengthPrefixScanner{}
	for i := range frames {
		p.scan(frames[i : i+1])
		if (p.partial() == 0) != boundaries[i] {
			t.Errorf("protobuf byte %d: partial %d", i, p.partial())
		}
	}
	p = &lengthPrefixScanner{}
	p.scan(frames[:7])
	if p.partial() != 1 {
		t.Errorf("protobuf in one read: partial %d, want 1", p.partial())
	}
}
