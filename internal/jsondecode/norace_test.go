//go:build !race

package jsondecode

const raceDetector = false
