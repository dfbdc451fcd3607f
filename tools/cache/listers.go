package cache

import (
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
)

// AppendFunc collects a matching item.
type AppendFunc func(interface{})

// selection is what a lister asks for: objects whose labels match selector
// and, when inNamespace is set, that live in namespace.
type selection struct {
	selector    labels.Selector
	namespace   string
	inNamespace bool
}

// matches reports whether obj is selected. An empty selector without a
// namespace accepts anything, even objects without metadata.
func (s selection) matches(obj interface{}) (bool, error) {
	if !s.inNamespace && s.selector.Empty() {
		return true, nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return false, err
	}
	if s.inNamespace && m.GetNamespace() != s.namespace {
		return false, nil
	}
	return s.selector.Matches(labels.Set(m.GetLabels())), nil
}

// collect hands every selected object of candidates to appendFn, in order,
// and stops at the first object without metadata.
func (s selection) collect(candidates []interface{}, appendFn AppendFunc) error {
	for _, obj := range candidates {
		ok, err := s.matches(obj)
		if err != nil {
			return err
		}
		if ok {
			appendFn(obj)
		}
	}
	return nil
}

// ListAll calls appendFn for every object in store whose labels match
// selector.
func ListAll(store Store, selector labels.Selector, appendFn AppendFunc) error {
	return selection{selector: selector}.collect(store.List(), appendFn)
}

// ListAllByNamespace calls appendFn for every object in namespace whose
// labels match selector. An empty namespace (NamespaceAll) means all. The
// namespace index narrows the search when the indexer has one; otherwise
// every object is examined.
func ListAllByNamespace(indexer Indexer, namespace string, selector labels.Selector, appendFn AppendFunc) error {
	if namespace == metav1.NamespaceAll {
		return ListAll(indexer, selector, appendFn)
	}
	inNamespace, err := indexer.Index(NamespaceIndex, &metav1.ObjectMeta{Namespace: namespace})
	if err == nil {
		// The index already restricted the candidates to namespace.
		return selection{selector: selector}.collect(inNamespace, appendFn)
	}
	klog.TODO().Info("Warning: can not retrieve list of objects using index", "err", err)
	return selection{selector: selector, namespace: namespace, inNamespace: true}.collect(indexer.List(), appendFn)
}

// GenericLister lists and gets objects of any type from an Indexer.
type GenericLister interface {
	// List will return all objects across namespaces
	List(selector labels.Selector) (ret []runtime.Object, err error)
	// Get will attempt to retrieve assuming that name==key
	Get(name string) (runtime.Object, error)
	// ByNamespace will give you a GenericNamespaceLister for one namespace
	ByNamespace(namespace string) GenericNamespaceLister
}

// GenericNamespaceLister lists and gets objects of one namespace.
type GenericNamespaceLister interface {
	// List will return all objects in this namespace
	List(selector labels.Selector) (ret []runtime.Object, err error)
	// Get will attempt to retrieve by namespace and name
	Get(name string) (runtime.Object, error)
}

// NewGenericLister returns a GenericLister over indexer; resource names
// the objects in NotFound errors.
func NewGenericLister(indexer Indexer, resource schema.GroupResource) GenericLister {
	return genericLister{objects: indexedObjects{indexer: indexer, resource: resource}}
}

// indexedObjects is the lookup both generic listers share.
type indexedObjects struct {
	indexer  Indexer
	resource schema.GroupResource
}

// list returns the objects of namespace (all for NamespaceAll) matching
// selector; nil when there are none.
func (o indexedObjects) list(namespace string, selector labels.Selector) ([]runtime.Object, error) {
	var out []runtime.Object
	err := ListAllByNamespace(o.indexer, namespace, selector, func(obj interface{}) {
		out = append(out, obj.(runtime.Object))
	})
	return out, err
}

// get returns the object stored under key, or a NotFound error for name.
func (o indexedObjects) get(key, name string) (runtime.Object, error) {
	obj, found, err := o.indexer.GetByKey(key)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, errors.NewNotFound(o.resource, name)
	}
	return obj.(runtime.Object), nil
}

// genericLister looks across namespaces; keys are given whole.
type genericLister struct {
	objects indexedObjects
}

func (l genericLister) List(selector labels.Selector) ([]runtime.Object, error) {
	return l.objects.list(metav1.NamespaceAll, selector)
}

func (l genericLister) Get(name string) (runtime.Object, error) {
	return l.objects.get(name, name)
}

func (l genericLister) ByNamespace(namespace string) GenericNamespaceLister {
	return genericNamespaceLister{objects: l.objects, namespace: namespace}
}

// genericNamespaceLister looks in one namespace; keys are namespace/name.
type genericNamespaceLister struct {
	objects   indexedObjects
	namespace string
}

func (l genericNamespaceLister) List(selector labels.Selector) ([]runtime.Object, error) {
	return l.objects.list(l.namespace, selector)
}

func (l genericNamespaceLister) Get(name string) (runtime.Object, error) {
	return l.objects.get(l.namespace+"/"+name, name)
}
