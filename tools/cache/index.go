package cache

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/sets"
)

// Indexer is a Store that also maintains named secondary indices and keeps
// only the latest object per key.
//
// Three kinds of strings appear in its methods: storage keys (as in Store),
// index names, and indexed values, which an IndexFunc computes from an
// object.
type Indexer interface {
	Store

	// GetIndexers returns the index functions.
	GetIndexers() Indexers
	// AddIndexers adds index functions; objects already stored are indexed
	// with them right away.
	AddIndexers(newIndexers Indexers) error

	// ByIndex returns the stored objects whose indexed values for indexName
	// include indexedValue.
	ByIndex(indexName, indexedValue string) ([]interface{}, error)
	// IndexKeys returns the storage keys of the objects whose indexed values
	// for indexName include indexedValue.
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// Index returns the stored objects that share at least one indexed
	// value of the named index with obj.
	Index(indexName string, obj interface{}) ([]interface{}, error)
	// ListIndexFuncValues returns every indexed value of the named index.
	ListIndexFuncValues(indexName string) []string
}

// IndexFunc computes the indexed values of an object.
type IndexFunc func(obj interface{}) ([]string, error)

// IndexFuncToKeyFuncAdapter turns an IndexFunc that yields exactly one value
// per object into a KeyFunc. Objects with several values are an error.
func IndexFuncToKeyFuncAdapter(indexFunc IndexFunc) KeyFunc {
	return func(obj interface{}) (string, error) {
		values, err := indexFunc(obj)
		if err != nil || len(values) == 0 {
			return "", err
		}
		if len(values) > 1 {
			return "", fmt.Errorf("too many keys: %v", values)
		}
		return values[0], nil
	}
}

// NamespaceIndex is the name conventionally given to MetaNamespaceIndexFunc.
const NamespaceIndex string = "namespace"

// MetaNamespaceIndexFunc indexes objects by their namespace.
func MetaNamespaceIndexFunc(obj interface{}) ([]string, error) {
	m, err := meta.Accessor(obj)
	if err == nil {
		return []string{m.GetNamespace()}, nil
	}
	return []string{""}, fmt.Errorf("object has no meta: %v", err)
}

// index maps an indexed value to the set of storage keys carrying it.
type index map[string]sets.Set[string]

// Indexers maps index names to index functions.
type Indexers map[string]IndexFunc

// Indices maps index names to indices.
type Indices map[string]index

// TypedIndexFunc is an IndexFunc for objects of a known type.
type TypedIndexFunc[T any] func(obj T) ([]string, error)

// TypedIndexers maps index names to typed index functions.
type TypedIndexers[T any] map[string]TypedIndexFunc[T]

// TypedIndexersToIndexers converts typed index functions into untyped ones
// that reject objects of another type.
func TypedIndexersToIndexers[T any](indexers TypedIndexers[T]) Indexers {
	if indexers == nil {
		return nil
	}
	out := make(Indexers, len(indexers))
	for name, fn := range indexers {
		out[name] = TypedIndexerFuncToIndexerFunc(fn)
	}
	return out
}

// TypedIndexerFuncToIndexerFunc converts one typed index function into an
// untyped IndexFunc that rejects objects of another type.
func TypedIndexerFuncToIndexerFunc[T any](indexer TypedIndexFunc[T]) IndexFunc {
	return func(obj interface{}) ([]string, error) {
		typed, ok := obj.(T)
		if !ok {
			var zero T
			return nil, fmt.Errorf("expected object of type %T, got %T", zero, obj)
		}
		return indexer(typed)
	}
}
