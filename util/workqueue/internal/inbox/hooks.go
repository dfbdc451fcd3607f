package inbox

import "sync/atomic"

// Hooks are calls Post and Take make at the two points where a test needs
// to hold a goroutine still. They exist for tests only; a process that
// never calls SetHooks pays one atomic load per Post and none per Take
// that finds its element written.
type Hooks struct {
	// Claimed runs in Post between claiming a slot and writing it.
	Claimed func()
	// Waiting runs in Take when it finds the oldest slot claimed and not
	// yet written, before it waits for the write.
	Waiting func()
}

// hooks holds the installed Hooks, nil for none.
var hooks atomic.Pointer[Hooks]

// SetHooks installs h (nil for none) for every Inbox and returns a
// function restoring the hooks installed before. For tests only.
func SetHooks(h *Hooks) (restore func()) {
	prev := hooks.Swap(h)
	return func() { hooks.Store(prev) }
}
