package wire

// AppendItem decodes one item of a list (field num, its Items) as
// AppendMessage does. When the decode collects its items (a ReuseLog
// with CollectItems), the item is decoded into an allocation of its own
// and logged instead: an informer keeps that allocation, at the address
// its spec was logged at for reuse (see Reused and package listitems),
// instead of a copy made later. FinishItems then fills the list's array
// with copies of the logged items, once all are decoded, so that the
// array is not there, holding the same pointers as the items, for the
// collections that run while the list decodes.
func AppendItem[S ~[]T, T any](r *Reader, typ int, num int32, v *S, dec func(Reader, *T) error) error {
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
