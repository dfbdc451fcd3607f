//go:build unix

package cache

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time the process has used, all threads.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
