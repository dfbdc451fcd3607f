// Package jsontest holds what the differential tests of the generated JSON
// decoders share: documents mutated and corrupted as a fuzzer would
// (duplicate keys, case and escape variants of names, values of every
// kind, damaged bytes) and the first difference between two decoded
// objects. internal/jsondecode's tests and pkg/decoders/decoderstest, the
// check users' generated decoders run, use it.
package jsontest
