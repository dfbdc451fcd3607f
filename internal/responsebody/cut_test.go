package responsebody

import (
	"bytes"
	"testing"

	"github.com/kubeclient/client-go/internal/jsonscan"
)

// TestFrameScanners feeds the scanners a stream byte by byte: partial is
// zero exactly at frame boundaries.
func TestFrameScanners(t *testing.T) {
	json := []byte(`{"a":"}\"{[","b":[{}]}` + "\n" + `{"c":1}`)
	var s frameScanner = &jsonscan.Scanner{}
	for i, c := range json {
		s.Feed([]byte{c})
		atBoundary := i == bytes.IndexByte(json, '\n')-1 || i == bytes.IndexByte(json, '\n') || i == len(json)-1
		if (s.Held() == 0) != atBoundary {
			t.Errorf("json byte %d (%q): partial %d", i, c, s.Held())
		}
	}

	frames := []byte{0, 0, 0, 2, 'a', 'b', 0, 0, 0, 0, 0, 0, 0, 1, 'c'}
	boundaries := map[int]bool{5: true, 9: true, 14: true}
	var p frameScanner = &lengthPrefixScanner{}
	for i := range frames {
		p.Feed(frames[i : i+1])
		if (p.Held() == 0) != boundaries[i] {
			t.Errorf("protobuf byte %d: partial %d", i, p.Held())
		}
	}
	p = &lengthPrefixScanner{}
	p.Feed(frames[:7])
	if p.Held() != 1 {
		t.Errorf("protobuf in one read: partial %d, want 1", p.Held())
	}
}
