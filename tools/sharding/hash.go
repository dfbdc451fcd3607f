package sharding

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
)

// Key names the object field whose hash places an object in the hash
// space. kube-apiserver accepts these two.
type Key string

const (
	// KeyUID hashes metadata.uid: objects spread evenly whatever their
	// names or namespaces.
	KeyUID Key = "object.metadata.uid"
	// KeyNamespace hashes metadata.namespace: every object of a namespace
	// lands on the same replica. Cluster-scoped objects all hash the empty
	// string.
	KeyNamespace Key = "object.metadata.namespace"
)

// Valid reports whether k is one of the keys kube-apiserver accepts.
func (k Key) Valid() bool { return k == KeyUID || k == KeyNamespace }

// FNV-1a, 64 bits: the hash kube-apiserver applies to the key's value.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// Hash returns the 64-bit FNV-1a hash of value, the position in the hash
// space kube-apiserver gives an object whose key field holds value.
func Hash(value string) uint64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(value); i++ {
		h ^= uint64(value[i])
		h *= fnvPrime64
	}
	return h
}

// ObjectHash returns the hash of obj's key field. It fails when obj has no
// object metadata or k is not a valid key.
func ObjectHash(obj any, k Key) (uint64, error) {
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return 0, fmt.Errorf("sharding: object has no metadata: %w", err)
	}
	switch k {
	case KeyUID:
		return Hash(string(accessor.GetUID())), nil
	case KeyNamespace:
		return Hash(accessor.GetNamespace()), nil
	default:
		return 0, fmt.Errorf("sharding: unsupported key %q", k)
	}
}
