package gentype

// ToPointerSlice returns a slice whose elements point at the elements of src.
// The pointers alias src's backing array.
func ToPointerSlice[T any](src []T) []*T {
	if src == nil {
		return nil
	}
	out := make([]*T, len(src))
	for i := range src {
		out[i] = &src[i]
	}
	return out
}

// FromPointerSlice returns a slice holding copies of the values src points at.
func FromPointerSlice[T any](src []*T) []T {
	if src == nil {
		return nil
	}
	out := make([]T, len(src))
	for i, p := range src {
		out[i] = *p
	}
	return out
}
