//go:build race

package protodecode

// raceDetector shortens the default differential run under -race, whose
// instrumentation makes the reference decoder many times slower.
const raceDetector = true
