package testing

import (
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// managedFieldObjectTracker is a tracker that also maintains
// metadata.managedFields and resolves server-side apply through
// k8s.io/apimachinery's field manager, like the API server. The main
// resource and its status subresource have separate field managers, so
// applying to status owns and changes only status.
type managedFieldObjectTracker struct {
	base          *tracker
	scheme        *runtime.Scheme
	typeConverter managedfields.TypeConverter

	mapperMu    sync.Mutex      // guards mapper and mappedTypes
	mapper      meta.RESTMapper // built from scheme, again when it grows
	mappedTypes int             // number of scheme types mapper was built from
}

var (
	_ ObjectTracker = &managedFieldObjectTracker{}
	_ serverTracker = &managedFieldObjectTracker{}
)

// NewFieldManagedObjectTracker returns an ObjectTracker like
// NewObjectTracker's that also records managed fields on every write and
// implements Apply as server-side apply, with field ownership, conflicts
// and force. typeConverter describes the schema of the types in scheme
// (managedfields.NewDeducedTypeConverter works for any type, treating
// lists as atomic).
//
// Like NewObjectTracker's, the tracker stores objects as given apart from
// their type metadata and managed fields; a write to the status
// subresource is a write of the whole object, as in client-go.
func NewFieldManagedObjectTracker(scheme *runtime.Scheme, decoder runtime.Decoder, typeConverter managedfields.TypeConverter) ObjectTracker {
	return newManagedTracker(scheme, decoder, typeConverter, newClientGoSemantics())
}

// NewServerLikeFieldManagedObjectTracker returns a tracker like
// NewFieldManagedObjectTracker's with the API-server semantics of
// NewServerLikeObjectTracker. In addition the main resource and its status
// subresource are managed separately: writes and applies to status own
// and change only status, and those to the main resource leave it alone.
func NewServerLikeFieldManagedObjectTracker(scheme *runtime.Scheme, decoder runtime.Decoder, typeConverter managedfields.TypeConverter) ObjectTracker {
	return newManagedTracker(scheme, decoder, typeConverter, newServerSemantics())
}

func newManagedTracker(scheme *runtime.Scheme, decoder runtime.Decoder, typeConverter managedfields.TypeConverter, sem semantics) *managedFieldObjectTracker {
	return &managedFieldObjectTracker{
		base:          newTracker(scheme, decoder, sem),
		scheme:        scheme,
		typeConverter: typeConverter,
	}
}

// IsWatchListSemanticsUnSupported tells reflectors to list then watch.
func (t *managedFieldObjectTracker) IsWatchListSemanticsUnSupported() bool { return true }

// Add stores obj as it is, like NewObjectTracker's Add.
func (t *managedFieldObjectTracker) Add(obj runtime.Object) error { return t.base.Add(obj) }

// Get returns a copy of the stored object.
func (t *managedFieldObjectTracker) Get(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.GetOptions) (runtime.Object, error) {
	return t.base.Get(gvr, ns, name, opts...)
}

// List returns the matching objects.
func (t *managedFieldObjectTracker) List(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error) {
	return t.base.List(gvr, gvk, ns, opts...)
}

// Watch streams changes, as NewObjectTracker's Watch does.
func (t *managedFieldObjectTracker) Watch(gvr schema.GroupVersionResource, ns string, opts ...metav1.ListOptions) (watch.Interface, error) {
	return t.base.Watch(gvr, ns, opts...)
}

// Delete removes the object, or marks it while it has finalizers.
func (t *managedFieldObjectTracker) Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error {
	return t.base.Delete(gvr, ns, name, opts...)
}

// Create stores a new object and records its fields as owned by
// opts.FieldManager.
func (t *managedFieldObjectTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	_, err = t.trackCreate(gvr, obj, ns, o)
	return err
}

// Update replaces an object and records the changed fields as owned by
// opts.FieldManager.
func (t *managedFieldObjectTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	_, err = t.trackUpdate(gvr, "", obj, ns, o.FieldManager, writeOptions{dryRun: o.DryRun})
	return err
}

// Patch stores a patched object and records the changed fields as owned by
// opts.FieldManager.
func (t *managedFieldObjectTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	_, err = t.trackUpdate(gvr, "", obj, ns, o.FieldManager, writeOptions{dryRun: o.DryRun})
	return err
}

// Apply performs a server-side apply of applyConfiguration for the manager
// opts.FieldManager, creating the object if it does not exist.
func (t *managedFieldObjectTracker) Apply(gvr schema.GroupVersionResource, applyConfiguration runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	o, err := singleOption(opts)
	if err != nil {
		return err
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(applyConfiguration)
	if err != nil {
		return err
	}
	_, err = t.trackApply(gvr, "", &unstructured.Unstructured{Object: content}, ns, o)
	return err
}

// kindFor maps gvr to the kind the scheme serves it as. A resource the
// scheme does not know fails with the REST mapper's error, as every write
// of client-go's field-managed tracker does. The mapping is rebuilt
// whenever the scheme has gained types since it was built.
func (t *managedFieldObjectTracker) kindFor(gvr schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	t.mapperMu.Lock()
	defer t.mapperMu.Unlock()
	known := len(t.scheme.AllKnownTypes())
	if t.mapper == nil || known != t.mappedTypes {
		t.mapper = testrestmapper.TestOnlyStaticRESTMapper(t.scheme)
		t.mappedTypes = known
	}
	return t.mapper.KindFor(gvr)
}

// fieldManagerFor returns a field manager for gvk and subresource ("" or
// "status"). Like the API server's, the main resource's manager ignores
// status fields and the status manager owns nothing but status.
func (t *managedFieldObjectTracker) fieldManagerFor(gvk schema.GroupVersionKind, subresource string) (*managedfields.FieldManager, error) {
	if !t.base.sem.splitsStatus() {
		// One manager for the whole object, status included.
		return managedfields.NewDefaultFieldManager(
			t.typeConverter, t.scheme, noDefaulting{}, t.scheme,
			gvk, gvk.GroupVersion(), "", nil)
	}
	version := fieldpath.APIVersion(gvk.GroupVersion().String())
	var filter fieldpath.Filter
	if subresource == "status" {
		filter = fieldpath.NewIncludeMatcherFilter(fieldpath.MakePrefixMatcherOrDie("status"))
	} else {
		filter = fieldpath.NewExcludeSetFilter(fieldpath.NewSet(fieldpath.MakePathOrDie("status")))
	}
	return managedfields.NewDefaultFieldManager(
		t.typeConverter, t.scheme, noDefaulting{}, t.scheme,
		gvk, gvk.GroupVersion(), subresource,
		map[fieldpath.APIVersion]fieldpath.Filter{version: filter})
}

// noDefaulting is the runtime.ObjectDefaulter of a fake: it sets nothing.
type noDefaulting struct{}

func (noDefaulting) Default(runtime.Object) {}

// stampKind sets the type metadata of obj, which the field manager needs.
func stampKind(obj runtime.Object, gvk schema.GroupVersionKind) {
	obj.GetObjectKind().SetGroupVersionKind(gvk)
}

func (t *managedFieldObjectTracker) trackCreate(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts metav1.CreateOptions) (runtime.Object, error) {
	gvk, err := t.kindFor(gvr)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return t.base.trackCreate(gvr, obj, ns, opts)
	}
	mgr, err := t.fieldManagerFor(gvk, "")
	if err != nil {
		return nil, err
	}
	// Like client-go's, the object given is the one the field manager
	// works on: the caller sees its kind and managed fields filled in.
	stampKind(obj, gvk)
	live, err := t.liveOrNew(gvr, gvk, ns, obj)
	if err != nil {
		return nil, err
	}
	managed, err := mgr.Update(live, obj, opts.FieldManager)
	if err != nil {
		return nil, err
	}
	return t.base.write(gvr, "", managed, ns, writeCreate, writeOptions{dryRun: opts.DryRun})
}

// liveOrNew returns the stored object obj names, or an empty object of kind
// gvk when there is none: a create that is going to fail because the
// object exists leaves the caller's object as an update of it would (as in
// client-go, where an unchanged object gains no managed fields).
func (t *managedFieldObjectTracker) liveOrNew(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, obj runtime.Object) (runtime.Object, error) {
	if m, err := meta.Accessor(obj); err == nil && m.GetName() != "" {
		live, err := t.base.Get(gvr, ns, m.GetName())
		switch {
		case err == nil:
			stampKind(live, gvk)
			return live, nil
		case !apierrors.IsNotFound(err):
			return nil, err
		}
	}
	live, err := t.scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	stampKind(live, gvk)
	return live, nil
}

func (t *managedFieldObjectTracker) trackUpdate(gvr schema.GroupVersionResource, subresource string, obj runtime.Object, ns string, fieldManager string, opts writeOptions) (runtime.Object, error) {
	if subresource == "status" && !t.base.sem.splitsStatus() {
		subresource = ""
	}
	gvk, err := t.kindFor(gvr)
	if err != nil {
		return nil, err
	}
	if obj == nil || (subresource != "" && subresource != "status") {
		return t.base.write(gvr, subresource, obj, ns, writeUpdate, opts)
	}
	objMeta, err := meta.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("object of type %T has no metadata", obj))
	}
	live, err := t.base.Get(gvr, ns, objMeta.GetName())
	if err != nil {
		return nil, err
	}
	mgr, err := t.fieldManagerFor(gvk, subresource)
	if err != nil {
		return nil, err
	}
	// The field manager records the managed fields on obj itself, as in
	// client-go, except for a separately managed status update, which
	// works on a merged copy.
	if subresource == "status" {
		// Show the field manager only what a status update can change.
		if obj, err = withStatusOf(live, obj); err != nil {
			return nil, err
		}
	}
	stampKind(obj, gvk)
	stampKind(live, gvk)
	managed, err := mgr.Update(live, obj, fieldManager)
	if err != nil {
		return nil, err
	}
	return t.base.write(gvr, subresource, managed, ns, writeUpdate, opts)
}

func (t *managedFieldObjectTracker) trackApply(gvr schema.GroupVersionResource, subresource string, cfg *unstructured.Unstructured, ns string, opts metav1.PatchOptions) (runtime.Object, error) {
	if subresource == "status" && !t.base.sem.splitsStatus() {
		subresource = ""
	}
	gvk, err := t.kindFor(gvr)
	if err != nil {
		return nil, err
	}
	if subresource != "" && subresource != "status" {
		return t.base.applyMerge(gvr, subresource, cfg, ns, opts)
	}
	if opts.FieldManager == "" {
		return nil, apierrors.NewBadRequest("PatchOptions.fieldManager is required for apply requests")
	}
	if cfg.GetKind() == "" {
		cfg.SetGroupVersionKind(gvk)
	}
	exists := true
	live, err := t.base.Get(gvr, ns, cfg.GetName())
	switch {
	case apierrors.IsNotFound(err) && subresource == "":
		exists = false
		if live, err = t.scheme.New(gvk); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	}
	stampKind(live, gvk)
	mgr, err := t.fieldManagerFor(gvk, subresource)
	if err != nil {
		return nil, err
	}
	force := opts.Force != nil && *opts.Force
	applied, err := mgr.Apply(live, cfg, opts.FieldManager, force)
	if err != nil {
		return nil, err
	}
	if !exists {
		if m, err := meta.Accessor(applied); err == nil && m.GetNamespace() == "" {
			m.SetNamespace(ns)
		}
		return t.base.write(gvr, "", applied, ns, writeCreate, writeOptions{dryRun: opts.DryRun})
	}
	return t.base.write(gvr, subresource, applied, ns, writeUpdate, writeOptions{dryRun: opts.DryRun})
}

func (t *managedFieldObjectTracker) trackDelete(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error) {
	return t.base.deleteObject(gvr, ns, name, opts)
}

func (t *managedFieldObjectTracker) matchingNames(gvr schema.GroupVersionResource, ns string, opts metav1.ListOptions) ([]types.NamespacedName, error) {
	return t.base.matchingNames(gvr, ns, opts)
}
