package cache

import "k8s.io/utils/clock"

// realClockForTest is the real clock, named for readability in tests.
type realClockForTest = clock.RealClock
