// Package jsondecode decodes JSON documents into k8s.io/api objects without
// reflection, producing exactly what apimachinery's JSON serializer
// (sigs.k8s.io/json, case-sensitive, non-strict) produces.
//
// It is an internal layer below rest and the serializers: callers try Into
// first and fall back to the reference decoder when it reports that it did
// not handle the object or failed.
package jsondecode
