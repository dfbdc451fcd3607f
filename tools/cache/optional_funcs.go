package cache

// Helpers for the types in this package that are made of optional
// function fields (ResourceEventHandlerFuncs, FakeCustomStore): an unset
// function does nothing and yields zero values.

// callIfSet calls fn(arg) when fn is set.
func callIfSet[A any](fn func(A), arg A) {
	if fn != nil {
		fn(arg)
	}
}

// callIfSet2 calls fn(a, b) when fn is set.
func callIfSet2[A, B any](fn func(A, B), a A, b B) {
	if fn != nil {
		fn(a, b)
	}
}

// orZero returns fn(arg) when fn is set and R's zero value otherwise.
func orZero[A, R any](fn func(A) R, arg A) R {
	if fn == nil {
		var zero R
		return zero
	}
	return fn(arg)
}

// orZero0 is orZero for a function without arguments.
func orZero0[R any](fn func() R) R {
	if fn == nil {
		var zero R
		return zero
	}
	return fn()
}

// lookupOrMiss returns fn(arg) for a Get-style fn when it is set;
// otherwise nothing is found.
func lookupOrMiss[A any](fn func(A) (interface{}, bool, error), arg A) (interface{}, bool, error) {
	if fn == nil {
		return nil, false, nil
	}
	return fn(arg)
}
