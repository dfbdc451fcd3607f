//go:build !unix

package cache

import "time"

// processCPUTime is unknown here: benchmarks report zero CPU time.
func processCPUTime() time.Duration { return 0 }
