package testing

import (
	"fmt"
	"sort"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// ObjectTracker stores the objects of a fake client, keyed by resource,
// namespace and name, and answers reads, writes and watches on them.
type ObjectTracker interface {
	// Add stores obj as it is, under the resource guessed from its kind.
	// The items of a list object are added one by one.
	Add(obj runtime.Object) error

	// Get returns a copy of the object name in namespace ns.
	Get(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.GetOptions) (runtime.Object, error)

	// Create stores a new object in namespace ns.
	Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error

	// Update replaces an existing object in namespace ns.
	Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error

	// Patch stores the already patched form of an existing object.
	Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error

	// Apply merges an apply configuration into the object it names,
	// creating the object when it does not exist.
	Apply(gvr schema.GroupVersionResource, applyConfiguration runtime.Object, ns string, opts ...metav1.PatchOptions) error

	// List returns the objects of resource gvr, whose items have kind gvk,
	// in namespace ns (every namespace when empty). gvk is the item kind,
	// not the list kind.
	List(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error)

	// Delete removes the object name in namespace ns. A server-like
	// tracker only marks it for deletion while it still has finalizers.
	Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error

	// Watch streams the changes to resource gvr in namespace ns.
	Watch(gvr schema.GroupVersionResource, ns string, opts ...metav1.ListOptions) (watch.Interface, error)
}

// ObjectScheme is what the tracker needs from a scheme: creating objects of
// a kind and telling the kinds of an object.
type ObjectScheme interface {
	runtime.ObjectCreater
	runtime.ObjectTyper
}

// tracker is the in-memory store behind NewObjectTracker.
type tracker struct {
	scheme  ObjectScheme
	decoder runtime.Decoder

	mu        sync.Mutex // guards resources, every resourceStore and the state of sem
	resources map[schema.GroupVersionResource]*resourceStore
	// sem decides how writes, deletes, lists and watches behave: like
	// client-go's tracker or like an API server.
	sem semantics
}

// resourceStore holds the objects of one resource with their recent
// history and the watches open on it.
type resourceStore struct {
	objects map[types.NamespacedName]*storedObject
	// history holds the most recent events, oldest first, for semantics
	// that replay them to watches. Every event with a revision above
	// compacted is in it.
	history   []storedEvent
	compacted int64
	watchers  map[*trackerWatcher]struct{}
}

// broadcast hands ev to the watchers of s.
func (s *resourceStore) broadcast(ev storedEvent) {
	for w := range s.watchers {
		w.offer(ev)
	}
}

// storedObject is an object owned by the tracker. obj is never mutated once
// stored: writes replace it, readers get deep copies.
type storedObject struct {
	obj runtime.Object
	rev int64 // revision of the write that stored it
}

// storedEvent is one change to a resource. obj is the object after the
// change (for deletions, the last state) and prev the state before it.
type storedEvent struct {
	rev  int64
	typ  watch.EventType
	obj  runtime.Object
	prev runtime.Object
}

var _ ObjectTracker = &tracker{}

// NewObjectTracker returns an ObjectTracker that keeps objects in memory
// and stores and returns them exactly as they are given: it fills in no
// metadata, checks no resourceVersion, ignores finalizers and dry-run, and
// versions each resource with its own write counter (see the package
// documentation). scheme resolves kinds for Add and List; decoder decodes
// raw list items given to Add.
func NewObjectTracker(scheme ObjectScheme, decoder runtime.Decoder) ObjectTracker {
	return newTracker(scheme, decoder, newClientGoSemantics())
}

// NewServerLikeObjectTracker returns an ObjectTracker that treats objects
// the way an API server would: it fills in server-owned metadata,
// resolves generateName, rejects stale resourceVersions, follows
// generation, honours finalizers, dry-run, selectors and pagination, and
// replays watches from a resourceVersion (see the package documentation).
// Its arguments are those of NewObjectTracker.
func NewServerLikeObjectTracker(scheme ObjectScheme, decoder runtime.Decoder) ObjectTracker {
	return newTracker(scheme, decoder, newServerSemantics())
}

func newTracker(scheme ObjectScheme, decoder runtime.Decoder, sem semantics) *tracker {
	return &tracker{
		scheme:    scheme,
		decoder:   decoder,
		resources: map[schema.GroupVersionResource]*resourceStore{},
		sem:       sem,
	}
}

// IsWatchListSemanticsUnSupported tells reflectors to list then watch
// rather than use streaming lists.
func (t *tracker) IsWatchListSemanticsUnSupported() bool { return true }

func (t *tracker) store(gvr schema.GroupVersionResource) *resourceStore {
	s, ok := t.resources[gvr]
	if !ok {
		s = &resourceStore{
			objects:  map[types.NamespacedName]*storedObject{},
			watchers: map[*trackerWatcher]struct{}{},
		}
		t.resources[gvr] = s
	}
	return s
}

// singleOption returns the optional trailing options argument, refusing
// more than one.
func singleOption[T any](opts []T) (T, error) {
	var zero T
	switch len(opts) {
	case 0:
		return zero, nil
	case 1:
		return opts[0], nil
	default:
		return zero, fmt.Errorf("expected at most one options argument, got %d", len(opts))
	}
}

// Add stores obj, or each item of a list, exactly as given under the
// resource guessed from its kind (for example Pod -> pods). It fails if an
// object of that name already exists.
func (t *tracker) Add(obj runtime.Object) error {
	if obj == nil {
		return fmt.Errorf("cannot add a nil object")
	}
	if meta.IsListType(obj) {
		items, err := meta.ExtractList(obj)
		if err != nil {
			return err
		}
		if errs := runtime.DecodeList(items, t.decoder); len(errs) > 0 {
			return errs[0]
		}
		for _, item := range items {
			if err := t.Add(item); err != nil {
				return err
			}
		}
		return nil
	}
	objMeta, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	gvks, err := t.kindsOf(obj)
	if err != nil {
		return err
	}
	for _, gvk := range gvks {
		gvr, _ := meta.UnsafeGuessKindToResource(gvk)
		if gvr.Version == runtime.APIVersionInternal {
			gvr.Version = ""
		}
		if _, err := t.write(gvr, "", obj, objMeta.GetNamespace(), writeAdd, writeOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// kindsOf returns the kinds of obj, trusting the type metadata of
// unstructured and partial objects.
func (t *tracker) kindsOf(obj runtime.Object) ([]schema.GroupVersionKind, error) {
	if partial, ok := obj.(*metav1.PartialObjectMetadata); ok && partial.APIVersion != "" {
		return []schema.GroupVersionKind{partial.GroupVersionKind()}, nil
	}
	if u, ok := obj.(runtime.Unstructured); ok {
		gvk := u.GetObjectKind().GroupVersionKind()
		if gvk.Kind == "" {
			return nil, fmt.Errorf("unstructured object has no kind")
		}
		return []schema.GroupVersionKind{gvk}, nil
	}
	gvks, _, err := t.scheme.ObjectKinds(obj)
	if err != nil {
		return nil, err
	}
	if len(gvks) == 0 {
		return nil, fmt.Errorf("no kind is registered for %T", obj)
	}
	return gvks, nil
}

// Get returns a copy of the stored object. A stored *metav1.Status that
// is not a success is returned as the error it describes.
func (t *tracker) Get(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.GetOptions) (runtime.Object, error) {
	if _, err := singleOption(opts); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.resources[gvr]
	if !ok {
		return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
	}
	so, ok := s.objects[types.NamespacedName{Namespace: ns, Name: name}]
	if !ok {
		return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
	}
	obj := so.obj.DeepCopyObject()
	if status, ok := obj.(*metav1.Status); ok && status.Status != metav1.StatusSuccess {
		return nil, &apierrors.StatusError{ErrStatus: *status}
	}
	return obj, nil
}

// Create stores a new object. A server-like tracker also fills in the name
// from generateName, a uid, creationTimestamp and generation 1 when they
// are unset, and a fresh resourceVersion.
func (t *tracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	_, err = t.write(gvr, "", obj, ns, writeCreate, writeOptions{dryRun: o.DryRun})
	return err
}

// Update replaces an existing object. For a server-like tracker a
// non-empty resourceVersion must match the stored one; an empty one
// updates unconditionally.
func (t *tracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	_, err = t.write(gvr, "", obj, ns, writeUpdate, writeOptions{dryRun: o.DryRun})
	return err
}

// Patch stores the patched form of an existing object, like Update.
func (t *tracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	_, err = t.write(gvr, "", obj, ns, writeUpdate, writeOptions{dryRun: o.DryRun})
	return err
}

// Apply merges applyConfiguration into the stored object with strategic
// merge patch semantics. A missing object is NotFound, except for a
// server-like tracker, which creates it. It does not track field
// ownership; NewFieldManagedObjectTracker does.
func (t *tracker) Apply(gvr schema.GroupVersionResource, applyConfiguration runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	_, err = t.applyMerge(gvr, "", applyConfiguration, ns, o)
	return err
}

// applyMerge implements Apply for an optional subresource and returns the
// stored result.
func (t *tracker) applyMerge(gvr schema.GroupVersionResource, subresource string, cfg runtime.Object, ns string, opts metav1.PatchOptions) (runtime.Object, error) {
	cfgMeta, err := meta.Accessor(cfg)
	if err != nil {
		return nil, err
	}
	patch, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cfg)
	if err != nil {
		return nil, err
	}
	current, err := t.Get(gvr, ns, cfgMeta.GetName())
	if apierrors.IsNotFound(err) && subresource == "" && t.sem.createsOnApply() {
		created, err := t.typedFromUnstructured(patch)
		if err != nil {
			return nil, err
		}
		return t.write(gvr, "", created, ns, writeCreate, writeOptions{dryRun: opts.DryRun})
	}
	if err != nil {
		return nil, err
	}
	merged, err := strategicMergeObject(current, patch)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return t.write(gvr, subresource, merged, ns, writeUpdate, writeOptions{dryRun: opts.DryRun})
}

// typedFromUnstructured turns content into the typed object of its kind
// when the scheme knows that kind, and into an Unstructured otherwise.
func (t *tracker) typedFromUnstructured(content map[string]interface{}) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: content}
	gvk := u.GroupVersionKind()
	if gvk.Kind == "" {
		return u, nil
	}
	typed, err := t.scheme.New(gvk)
	if err != nil {
		return u, nil
	}
	if _, isUnstructured := typed.(runtime.Unstructured); isUnstructured {
		return u, nil
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content, typed); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("cannot convert to %s: %v", gvk.Kind, err))
	}
	typed.GetObjectKind().SetGroupVersionKind(gvk)
	return typed, nil
}

// Delete removes the object. A server-like tracker honours the UID and
// resourceVersion preconditions of opts and only marks an object with
// finalizers with a deletionTimestamp; it goes away when an update removes
// its last finalizer.
func (t *tracker) Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	_, err = t.deleteObject(gvr, ns, name, o)
	return err
}

// List returns the objects of gvr in ns sorted by namespace and name, in a
// list whose resourceVersion is the resource's write counter. A
// server-like tracker returns only those matching the label and field
// selectors of opts, versions the list with its current resourceVersion,
// and pages through the result with Limit and Continue.
func (t *tracker) List(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error) {
	o, err := singleOption(opts)
	if err != nil {
		return nil, err
	}
	o = t.sem.listOptions(o)
	sel, err := newObjectSelector(ns, o)
	if err != nil {
		return nil, err
	}
	list, err := t.newList(gvk)
	if err != nil {
		return nil, err
	}

	t.mu.Lock()
	rev := t.sem.version(t.resources[gvr])
	var matched []runtime.Object
	if s, ok := t.resources[gvr]; ok {
		for _, so := range s.objects {
			if sel.matches(so.obj) {
				matched = append(matched, so.obj)
			}
		}
	}
	t.mu.Unlock()

	sortObjects(matched)
	page, next, remaining, err := paginate(matched, o)
	if err != nil {
		return nil, err
	}
	items := make([]runtime.Object, 0, len(page))
	for _, obj := range page {
		item, err := t.asListItem(list, gvk, obj.DeepCopyObject())
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	if err := meta.SetList(list, items); err != nil {
		return nil, err
	}
	if lm, err := meta.ListAccessor(list); err == nil {
		lm.SetResourceVersion(strconv.FormatInt(rev, 10))
		lm.SetContinue(next)
		if remaining > 0 {
			r := int64(remaining)
			lm.SetRemainingItemCount(&r)
		}
	}
	return list, nil
}

// newList creates the list object for items of kind gvk: the scheme's
// "<Kind>List" type, or an UnstructuredList when the scheme has none.
func (t *tracker) newList(gvk schema.GroupVersionKind) (runtime.Object, error) {
	listGVK := gvk
	listGVK.Kind += "List"
	if listGVK.Version == "" {
		listGVK.Version = runtime.APIVersionInternal
	}
	list, err := t.scheme.New(listGVK)
	if err != nil {
		if !runtime.IsNotRegisteredError(err) {
			return nil, err
		}
		ul := &unstructured.UnstructuredList{}
		ul.SetGroupVersionKind(listGVK)
		if listGVK.Version == runtime.APIVersionInternal {
			ul.SetAPIVersion(listGVK.Group)
		}
		return ul, nil
	}
	if !meta.IsListType(list) {
		return nil, fmt.Errorf("%q is not a list type", listGVK.Kind)
	}
	return list, nil
}

// asListItem converts obj between typed and unstructured form as the items
// of list require.
func (t *tracker) asListItem(list runtime.Object, gvk schema.GroupVersionKind, obj runtime.Object) (runtime.Object, error) {
	_, listIsUnstructured := list.(*unstructured.UnstructuredList)
	_, objIsUnstructured := obj.(*unstructured.Unstructured)
	switch {
	case listIsUnstructured && !objIsUnstructured:
		content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return nil, err
		}
		u := &unstructured.Unstructured{Object: content}
		if u.GetKind() == "" && gvk.Kind != "" && gvk.Version != "" {
			u.SetGroupVersionKind(gvk)
		}
		return u, nil
	case !listIsUnstructured && objIsUnstructured:
		if _, ok := list.(runtime.Unstructured); ok {
			return obj, nil
		}
		typed, err := t.scheme.New(gvk)
		if err != nil {
			return obj, nil
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.(*unstructured.Unstructured).Object, typed); err != nil {
			return nil, err
		}
		return typed, nil
	}
	return obj, nil
}

// sortObjects orders objects by namespace, then name.
func sortObjects(objs []runtime.Object) {
	sort.Slice(objs, func(i, j int) bool {
		a, _ := meta.Accessor(objs[i])
		b, _ := meta.Accessor(objs[j])
		if a == nil || b == nil {
			return false
		}
		if a.GetNamespace() != b.GetNamespace() {
			return a.GetNamespace() < b.GetNamespace()
		}
		return a.GetName() < b.GetName()
	})
}
