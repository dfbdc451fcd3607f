//go:build !race

package protodecode

const raceDetector = false
