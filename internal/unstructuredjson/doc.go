// Package unstructuredjson decodes JSON into the maps of unstructured
// objects without reflection, exactly as apimachinery does with
// sigs.k8s.io/json, and puts that decoder in front of apimachinery's JSON
// serializer for the dynamic client. It sits below dynamic: anything it
// does not decode as the reference would is left to the reference, which
// also produces every error.
package unstructuredjson
