package intern

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Sharer makes objects share what they have in common with the objects
// it saw before: Copy returns a copy of an object whose strings, and
// optionally its managed-fields sets and resource lists, are the copies
// kept by its tables. The copy is reflect.DeepEqual to the object.
//
// A Sharer never writes into the object it is given, nor into anything
// reachable from it: the object's maps and slices may be held by other
// objects (a decoder may have shared them, a caller may keep them). It
// writes only into the copy it has just made, before returning it; once
// returned, the copy and the table values it holds are read-only for
// everyone, as the objects of an informer's cache are.
type Sharer struct {
	// Strings interns strings. It must not be nil.
	Strings *Strings
	// Boxed interns strings held in interfaces (the values of
	// unstructured objects), so that a shared string costs no new box.
	// It must not be nil.
	Boxed *BoxedStrings
	// Fields dedups the raw sets of managed fields (FieldsV1). Nil means
	// no sharing.
	Fields *Table[[]byte]
	// ResourceLists dedups resource lists (limits, requests). Nil means
	// no sharing.
	ResourceLists *Table[corev1.ResourceList]
	// Trees dedups the managed-fields sets of unstructured objects
	// (fieldsV1 trees). Nil means no sharing.
	Trees *Table[map[string]interface{}]
}

// Sizes of the tables NewSharer builds. Memory kept by the tables is at
// most slots times the longest value they keep.
const (
	stringSlots       = 1 << 14
	maxStringLen      = 512
	fieldsSlots       = 1 << 10
	maxFieldsLen      = 16 << 10
	resourceListSlots = 1 << 10
	maxResourceList   = 8
)

// sharedStrings is the process-wide string table.
var sharedStrings = NewStrings(stringSlots, maxStringLen)

// SharedStrings returns the process-wide string table, which every Sharer
// from NewSharer uses (with the process-wide SharedBoxedStrings). A decoder that interns strings as it reads them
// should use it too: the cache then finds those strings interned already.
func SharedStrings() *Strings { return sharedStrings }

// NewSharer returns a Sharer with the process-wide string table and other
// tables of the default sizes; shareAll adds the tables for byte slices
// and maps.
func NewSharer(shareAll bool) *Sharer {
	s := &Sharer{Strings: sharedStrings, Boxed: sharedBoxed}
	if shareAll {
		s.Fields = NewBytes(fieldsSlots, maxFieldsLen)
		s.ResourceLists = newResourceLists(resourceListSlots)
		s.Trees = newTrees(treeSlots)
	}
	return s
}

// Copy returns the object to publish in obj's place: a deep copy of obj
// that shares what repeats with the objects seen before. obj is not
// written. Values Copy cannot copy (not a runtime.Object, a nil pointer)
// and Secrets (whose data must not enter process-wide tables, see
// IsSecret) are returned as they are.
func (s *Sharer) Copy(obj any) any {
	if IsSecret(obj) {
		return obj
	}
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		if o == nil {
			return obj
		}
		return &unstructured.Unstructured{Object: s.copyTree(o.Object)}
	case runtime.Object:
		if v := reflect.ValueOf(o); v.Kind() == reflect.Pointer && v.IsNil() {
			return obj
		}
		c := o.DeepCopyObject()
		s.shareInPlace(c)
		return c
	}
	return obj
}

// shareInPlace rewrites obj, a copy made by Copy that nobody else holds,
// to use the tables. Objects it does not understand are left alone:
// pods, and pod specs and statuses wherever they appear, are walked by
// hand-written code (see walkers), other pointers to structs field by
// field (see plan).
func (s *Sharer) shareInPlace(obj interface{}) {
	if p, ok := obj.(*corev1.Pod); ok {
		if p != nil {
			s.sharePod(p)
		}
		return
	}
	s.shareWith(obj, plans)
}

// shareWith shares obj with the plans of pl.
func (s *Sharer) shareWith(obj interface{}, pl *planner) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	s.walk(v.Elem(), pl.planFor(v.Elem().Type()))
}

func (s *Sharer) str(v string) string { return s.Strings.Intern(v) }

// shareMeta shares an ObjectMeta's repeating parts. Name, UID and
// ResourceVersion are unique to the object and left alone.
func (s *Sharer) shareMeta(m *metav1.ObjectMeta) {
	m.Namespace = s.str(m.Namespace)
	m.GenerateName = s.str(m.GenerateName)
	s.stringMap(m.Labels)
	s.stringMap(m.Annotations)
	s.strings(m.Finalizers)
	for i := range m.OwnerReferences {
		r := &m.OwnerReferences[i]
		r.APIVersion = s.str(r.APIVersion)
		r.Kind = s.str(r.Kind)
		r.Name = s.str(r.Name)
		r.UID = types.UID(s.str(string(r.UID)))
	}
	for i := range m.ManagedFields {
		f := &m.ManagedFields[i]
		f.Manager = s.str(f.Manager)
		f.Operation = metav1.ManagedFieldsOperationType(s.str(string(f.Operation)))
		f.APIVersion = s.str(f.APIVersion)
		f.FieldsType = s.str(f.FieldsType)
		f.Subresource = s.str(f.Subresource)
		if f.FieldsV1 != nil && s.Fields != nil {
			f.FieldsV1.Raw = s.Fields.Intern(f.FieldsV1.Raw)
		}
	}
}

// stringMap interns the keys and values of m, a map of a copy made by
// Copy, in place: assigning to a key present in a map stores the new key
// too. (Telling an entry that holds the table's copies already from an
// equal copy would take package unsafe; rewriting it costs one map store.)
func (s *Sharer) stringMap(m map[string]string) {
	for k, v := range m {
		if k == LastAppliedAnnotation {
			continue
		}
		m[s.str(k)] = s.str(v)
	}
}

// resourceList returns the table's copy of l, if sharing lists.
func (s *Sharer) resourceList(l corev1.ResourceList) corev1.ResourceList {
	if s.ResourceLists == nil || len(l) == 0 {
		return l
	}
	return s.ResourceLists.Intern(l)
}

func (s *Sharer) strings(list []string) {
	for i, v := range list {
		list[i] = s.str(v)
	}
}

// Clear empties s's tables, so that they keep no value alive: the objects
// holding the values keep them. Sharing starts afresh.
func (s *Sharer) Clear() {
	if s.Strings != nil {
		s.Strings.Clear()
	}
	if s.Boxed != nil {
		s.Boxed.Clear()
	}
	if s.Fields != nil {
		s.Fields.Clear()
	}
	if s.ResourceLists != nil {
		s.ResourceLists.Clear()
	}
	if s.Trees != nil {
		s.Trees.Clear()
	}
}
