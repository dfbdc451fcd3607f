package cache

import (
	"fmt"
	"maps"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/sets"
)

// storeIndex holds the index functions and the indices they maintain. It
// has no lock of its own; threadSafeMap's lock guards it.
type storeIndex struct {
	indexers Indexers
	indices  Indices
	// namespaceIndexes names the indexers that are MetaNamespaceIndexFunc.
	namespaceIndexes map[string]bool
}

func newStoreIndex(indexers Indexers, indices Indices) *storeIndex {
	i := &storeIndex{indexers: indexers, indices: indices, namespaceIndexes: map[string]bool{}}
	for name, fn := range indexers {
		i.namespaceIndexes[name] = isNamespaceIndexFunc(fn)
	}
	return i
}

func (i *storeIndex) reset() {
	i.indices = Indices{}
}

// lookup returns the function and the index named indexName.
func (i *storeIndex) lookup(indexName string) (IndexFunc, index, error) {
	if indexFunc := i.indexers[indexName]; indexFunc != nil {
		return indexFunc, i.indices[indexName], nil
	}
	return nil, nil, fmt.Errorf("index with name %s does not exist", indexName)
}

// keysForObject returns the keys of the objects that share an indexed value
// of indexName with obj. For the common single value it returns the index's
// own set, which the caller must not modify.
func (i *storeIndex) keysForObject(indexName string, obj interface{}) (sets.Set[string], error) {
	indexFunc, byValue, err := i.lookup(indexName)
	var values []string
	if err == nil {
		values, err = indexFunc(obj)
	}
	switch {
	case err != nil:
		return nil, err
	case len(values) == 1:
		return byValue[values[0]], nil
	}
	union := sets.New[string]()
	for _, value := range values {
		maps.Copy(union, byValue[value])
	}
	return union, nil
}

// keysForValue returns the keys indexed under value; the caller must not
// modify the set.
func (i *storeIndex) keysForValue(indexName, value string) (sets.Set[string], error) {
	_, byValue, err := i.lookup(indexName)
	if err != nil {
		return nil, err
	}
	return byValue[value], nil
}

func (i *storeIndex) values(indexName string) []string {
	idx := i.indices[indexName]
	out := make([]string, 0, len(idx))
	for v := range idx {
		out = append(out, v)
	}
	return out
}

func (i *storeIndex) addIndexers(newIndexers Indexers) error {
	for name := range newIndexers {
		if _, exists := i.indexers[name]; exists {
			return fmt.Errorf("indexer conflict: %v", sets.KeySet(newIndexers).Intersection(sets.KeySet(i.indexers)).UnsortedList())
		}
	}
	if i.indexers == nil {
		i.indexers = Indexers{}
	}
	for name, fn := range newIndexers {
		i.indexers[name] = fn
		i.namespaceIndexes[name] = isNamespaceIndexFunc(fn)
	}
	return nil
}

// update moves key from oldObj's indexed values to newObj's in every index.
// Either object may be nil.
func (i *storeIndex) update(oldObj, newObj interface{}, key string) {
	for name := range i.indexers {
		i.updateOne(name, oldObj, newObj, key)
	}
}

func (i *storeIndex) updateOne(name string, oldObj, newObj interface{}, key string) {
	fn := i.indexers[name]
	if i.namespaceIndexes[name] && i.updateNamespace(name, oldObj, newObj, key) {
		return
	}
	var oldValues, newValues []string
	var err error
	if oldObj != nil {
		if oldValues, err = fn(oldObj); err != nil {
			panic(fmt.Errorf("unable to calculate an index entry for key %q on index %q: %v", key, name, err))
		}
	}
	if newObj != nil {
		if newValues, err = fn(newObj); err != nil {
			panic(fmt.Errorf("unable to calculate an index entry for key %q on index %q: %v", key, name, err))
		}
	}
	if len(oldValues) == 1 && len(newValues) == 1 && oldValues[0] == newValues[0] {
		return
	}
	idx := i.indices[name]
	if idx == nil {
		idx = index{}
		i.indices[name] = idx
	}
	for _, v := range oldValues {
		if contains(newValues, v) {
			continue
		}
		if set := idx[v]; set != nil {
			set.Delete(key)
			if len(set) == 0 {
				// Drop empty sets so that churn through many distinct values
				// does not leak memory.
				delete(idx, v)
			}
		}
	}
	for _, v := range newValues {
		if contains(oldValues, v) {
			continue
		}
		set := idx[v]
		if set == nil {
			set = sets.Set[string]{}
			idx[v] = set
		}
		set.Insert(key)
	}
}

// namespaceIndexFuncPC identifies MetaNamespaceIndexFunc, the most common
// index function, which updateNamespace evaluates without allocating.
var namespaceIndexFuncPC = reflect.ValueOf(MetaNamespaceIndexFunc).Pointer()

func isNamespaceIndexFunc(fn IndexFunc) bool {
	return reflect.ValueOf(fn).Pointer() == namespaceIndexFuncPC
}

// namespaceOf returns obj's namespace; ok is false for a nil obj.
func namespaceOf(obj interface{}) (ns string, ok bool, err error) {
	if obj == nil {
		return "", false, nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", false, err
	}
	return m.GetNamespace(), true, nil
}

// updateNamespace is updateOne for MetaNamespaceIndexFunc. It returns
// false, leaving the work to the general path, for objects without
// metadata.
func (i *storeIndex) updateNamespace(name string, oldObj, newObj interface{}, key string) bool {
	oldNS, hadOld, err := namespaceOf(oldObj)
	if err != nil {
		return false
	}
	newNS, hasNew, err := namespaceOf(newObj)
	if err != nil {
		return false
	}
	if hadOld && hasNew && oldNS == newNS {
		return true
	}
	idx := i.indices[name]
	if idx == nil {
		idx = index{}
		i.indices[name] = idx
	}
	if hadOld {
		if set := idx[oldNS]; set != nil {
			set.Delete(key)
			if len(set) == 0 {
				delete(idx, oldNS)
			}
		}
	}
	if hasNew {
		set := idx[newNS]
		if set == nil {
			set = sets.Set[string]{}
			idx[newNS] = set
		}
		set.Insert(key)
	}
	return true
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
