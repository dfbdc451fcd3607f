package intern

import (
	"hash/maphash"
)

// Strings is a Table of strings that decoders can also query with the
// bytes of a string, so that a string already in the table costs them no
// allocation. Build one with NewStrings.
type Strings struct {
	*Table[string]
	seed   maphash.Seed
	maxLen int
}

// NewStrings returns a table of about slots non-empty strings of at most
// maxLen bytes each.
func NewStrings(slots, maxLen int) *Strings {
	s := &Strings{seed: maphash.MakeSeed(), maxLen: maxLen}
	s.Table = NewTable(slots, func(v string) (uint64, bool) {
		if len(v) == 0 || len(v) > maxLen {
			return 0, false
		}
		return maphash.String(s.seed, v), true
	}, func(a, b string) bool { return a == b })
	return s
}

// FromBytes returns a string equal to b: the table's copy when it holds
// one, else a new string, which the table then keeps as Intern would.
// maphash hashes a string and its bytes alike, so FromBytes and Intern
// find each other's strings. A nil table allocates every string.
func (s *Strings) FromBytes(b []byte) string {
	if s == nil || len(b) == 0 || len(b) > s.maxLen {
		return string(b)
	}
	h := maphash.Bytes(s.seed, b)
	t := s.Table
	set := h & t.mask &^ 1
	for i := set; i <= set+1; i++ {
		if held := t.slots[i].Load(); held != nil && *held == string(b) {
			return *held
		}
	}
	held := new(string)
	*held = string(b)
	t.keep(set, held)
	return *held
}

// Intern returns the table's copy of v if it has one, else v, which the
// table then keeps; as Table.Intern, without the indirect calls. A nil
// table returns v.
func (s *Strings) Intern(v string) string {
	if s == nil || len(v) == 0 || len(v) > s.maxLen {
		return v
	}
	h := maphash.String(s.seed, v)
	t := s.Table
	set := h & t.mask &^ 1
	for i := set; i <= set+1; i++ {
		if held := t.slots[i].Load(); held != nil && *held == v {
			return *held
		}
	}
	held := new(string)
	*held = v
	t.keep(set, held)
	return v
}

// Clear empties the table.
func (s *Strings) Clear() { s.Table.Clear() }
