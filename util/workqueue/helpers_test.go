package workqueue

import "runtime"

// runtimeYield lets other goroutines run while a test waits for a state
// change that has no channel to wait on (for example ShuttingDown turning
// true inside ShutDownWithDrain, which blocks its caller).
func runtimeYield() { runtime.Gosched() }
