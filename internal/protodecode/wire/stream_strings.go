package wire

// StreamStrings holds the interned strings the decodes of one stream of
// objects met last (a watch: one object per event), from one decode to
// the next: the events of a watch repeat their namespaces, condition
// types, images and field managers as much as the items of a list do
// (see recentStrings, which a list's decode keeps for itself). A
// StreamStrings is owned by the goroutine decoding the stream's events,
// one at a time.
type StreamStrings struct {
	recent recentStrings
}

// WithStreamStrings returns r whose decode finds the strings it interns
// in s first, and leaves there those it meets. r must have a slab
// (WithSlab); a Reader that interns nothing, or keeps recent strings of
// its own (a large message), is returned as it is.
func (r Reader) WithStreamStrings(s *StreamStrings) Reader {
	if s != nil && r.slab != nil && r.slab.recent == nil && !r.plain {
		r.slab.recent = &s.recent
	}
	return r
}
