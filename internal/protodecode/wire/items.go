package wire

// AppendItem decodes one item of a list (field num, its Items) as
// AppendMessage does. A list decoded for a caller with typed chunks
// decodes each item from a copy of its own (see ownedItem). When the
// decode collects its items (a ReuseLog with CollectItems), the item is
// decoded into an allocation of its own and logged instead: an informer
// keeps that allocation, at the address its spec was logged at for reuse
// (see Reused and package listitems), instead of a copy made later.
// FinishItems then fills the list's array with copies of the logged
// items, once all are decoded, so that the array is not there, holding
// the same pointers as the items, for the collections that run while the
// list decodes.
func AppendItem[S ~[]T, T any](r *Reader, typ int, num int32, v *S, dec func(Reader, *T) error) error {
	if r.slab != nil && r.slab.typed != nil && !r.plain {
		return appendMessage(r, typ, num, v, dec, true)
	}
	if r.reuse == nil || !r.reuse.collectItems {
		return AppendMessage(r, typ, num, v, dec)
	}
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	item := new(T)
	if err := dec(r.nested(b), item); err != nil {
		return err
	}
	r.reuse.items = append(r.reuse.items, item)
	return nil
}

// FinishItems ends the decode of a list whose items AppendItem logged:
// *v, the list's items, becomes an array of copies of them, in order.
// Without logged items it does nothing.
func FinishItems[S ~[]T, T any](r *Reader, v *S) error {
	if r.reuse == nil || !r.reuse.collectItems || len(r.reuse.items) == 0 {
		return nil
	}
	items := make(S, len(r.reuse.items))
	for i, logged := range r.reuse.items {
		item, ok := logged.(*T)
		if !ok {
			return ErrFallback
		}
		items[i] = *item
	}
	*v = items
	return nil
}

// ownedItem returns a Reader over a copy of b, the bytes of one item of a
// list decoded for a caller, made for this decode alone: the item's
// strings and byte values are its bytes, not copies of each (see
// Reader.str and SetBytes). Nothing else holds the copy, and the item's
// byte values (a managed-fields set) are cut to their length and never
// overlap a string, so a caller writing into one changes nothing else;
// the copy lives as long as any of them. A Secret's reader is never
// owned, so that its values are not kept in a buffer its caller cannot
// clear.
func (r *Reader) ownedItem(b []byte) Reader {
	n := r.nested(append([]byte(nil), b...))
	n.owned = true
	return n
}
