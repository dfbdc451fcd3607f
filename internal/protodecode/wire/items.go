package wire

// AppendItem decodes one item of a list (field num, its Items) as
// AppendMessage does. When the decode collects its items (a ReuseLog
// with CollectItems), the item is decoded into an allocation of its own,
// which the list's array then holds a copy of, and logged: an informer
// keeps that allocation, at the address its spec was logged at for reuse
// (see Reused and package listitems), instead of a copy made later.
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
	if *v == nil {
		*v = make(S, 0, r.sizeHint(num))
	}
	*v = append(*v, *item)
	r.reuse.items = append(r.reuse.items, item)
	return nil
}
