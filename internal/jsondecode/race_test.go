//go:build race

package jsondecode

// raceDetector shortens the default differential run under -race, whose
// instrumentation makes the reflective reference decoder many times slower.
const raceDetector = true
