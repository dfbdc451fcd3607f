package testing

import (
	"crypto/rand"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/watch"
)

// writeMode selects the server semantics of a write.
type writeMode int

const (
	// writeAdd stores a fixture as given; it must not exist yet.
	writeAdd writeMode = iota
	// writeCreate stores a new object, filling in server-owned metadata.
	writeCreate
	// writeUpdate replaces an existing object.
	writeUpdate
)

// writeOptions are the request options that matter to the store.
type writeOptions struct {
	dryRun []string
}

func (o writeOptions) isDryRun() bool {
	return len(o.dryRun) > 0
}

// Generated names are a prefix plus a random suffix, kept within the 63
// characters of a DNS label like the API server does.
const (
	generatedSuffixLen    = 5
	maxGenerateNamePrefix = 63 - generatedSuffixLen
)

// write stores obj under gvr in namespace ns with the semantics of mode and
// returns a copy of what was stored (for a dry run, of what would have
// been). subresource "status" restricts an update to the status.
func (t *tracker) write(gvr schema.GroupVersionResource, subresource string, obj runtime.Object, ns string, mode writeMode, opts writeOptions) (runtime.Object, error) {
	if obj == nil || (reflect.ValueOf(obj).Kind() == reflect.Pointer && reflect.ValueOf(obj).IsNil()) {
		return nil, apierrors.NewBadRequest("no object was given")
	}
	obj = obj.DeepCopyObject()
	objMeta, err := meta.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("object of type %T has no metadata: %v", obj, err))
	}
	if objMeta.GetNamespace() == "" {
		objMeta.SetNamespace(ns)
	}
	if objMeta.GetNamespace() != ns {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the namespace of the object (%q) does not match the namespace of the request (%q)", objMeta.GetNamespace(), ns))
	}
	gr := gvr.GroupResource()

	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.store(gvr)
	if !t.serverLike {
		return t.writePlain(s, gr, subresource, obj, objMeta, mode)
	}

	if mode == writeCreate && objMeta.GetName() == "" && objMeta.GetGenerateName() != "" {
		objMeta.SetName(t.generateName(s, ns, objMeta.GetGenerateName()))
	}
	key := types.NamespacedName{Namespace: ns, Name: objMeta.GetName()}
	current, exists := s.objects[key]

	switch mode {
	case writeAdd:
		if exists {
			return nil, apierrors.NewAlreadyExists(gr, key.Name)
		}
		// A fixture keeps its own metadata; only make sure later writes get
		// higher versions than a numeric resourceVersion it carries.
		if rv, err := strconv.ParseInt(objMeta.GetResourceVersion(), 10, 64); err == nil && rv > t.rev {
			t.rev = rv
		}
		t.rev++
		s.objects[key] = &storedObject{obj: obj, rev: t.rev}
		t.emit(s, storedEvent{rev: t.rev, typ: watch.Added, obj: obj})
		return obj.DeepCopyObject(), nil

	case writeCreate:
		if exists {
			return nil, apierrors.NewAlreadyExists(gr, key.Name)
		}
		if objMeta.GetUID() == "" {
			objMeta.SetUID(newUID())
		}
		if ts := objMeta.GetCreationTimestamp(); ts.IsZero() {
			objMeta.SetCreationTimestamp(t.now())
		}
		if objMeta.GetGeneration() == 0 {
			objMeta.SetGeneration(1)
		}
		if opts.isDryRun() {
			objMeta.SetResourceVersion("")
			return obj, nil
		}
		t.rev++
		objMeta.SetResourceVersion(strconv.FormatInt(t.rev, 10))
		s.objects[key] = &storedObject{obj: obj, rev: t.rev}
		t.emit(s, storedEvent{rev: t.rev, typ: watch.Added, obj: obj})
		return obj.DeepCopyObject(), nil
	}

	// writeUpdate
	if !exists {
		return nil, apierrors.NewNotFound(gr, key.Name)
	}
	if subresource != "" && reflect.TypeOf(obj) != reflect.TypeOf(current.obj) {
		// A subresource of another type (a Scale, an Eviction...) is not
		// stored in place of the object; hand it back as the answer.
		return obj, nil
	}
	oldMeta, err := meta.Accessor(current.obj)
	if err != nil {
		return nil, err
	}
	if err := checkWritePreconditions(gr, key.Name, oldMeta, objMeta); err != nil {
		return nil, err
	}
	if subresource == "status" {
		obj, err = withStatusOf(current.obj, obj)
		if err != nil {
			return nil, err
		}
		objMeta, _ = meta.Accessor(obj)
	}
	carryServerMetadata(oldMeta, objMeta)
	changed, err := specChanged(current.obj, obj)
	if err != nil {
		return nil, err
	}
	if changed {
		objMeta.SetGeneration(max(oldMeta.GetGeneration(), 1) + 1)
	} else {
		objMeta.SetGeneration(oldMeta.GetGeneration())
	}
	objMeta.SetResourceVersion(oldMeta.GetResourceVersion())

	finalized := oldMeta.GetDeletionTimestamp() != nil && len(objMeta.GetFinalizers()) == 0
	if !finalized && equality.Semantic.DeepEqual(obj, current.obj) {
		// Nothing changed: like the API server, do not write at all.
		return obj, nil
	}
	if opts.isDryRun() {
		return obj, nil
	}
	t.rev++
	objMeta.SetResourceVersion(strconv.FormatInt(t.rev, 10))
	if finalized {
		delete(s.objects, key)
		t.emit(s, storedEvent{rev: t.rev, typ: watch.Deleted, obj: obj, prev: current.obj})
		return obj.DeepCopyObject(), nil
	}
	s.objects[key] = &storedObject{obj: obj, rev: t.rev}
	t.emit(s, storedEvent{rev: t.rev, typ: watch.Modified, obj: obj, prev: current.obj})
	return obj.DeepCopyObject(), nil
}

// writePlain is write for a tracker that is not server-like: obj is stored
// exactly as given and the resource's write counter goes up. Only the
// existence of the object is checked; dry-run is not honoured. Called with
// t.mu held.
func (t *tracker) writePlain(s *resourceStore, gr schema.GroupResource, subresource string, obj runtime.Object, objMeta metav1.Object, mode writeMode) (runtime.Object, error) {
	key := types.NamespacedName{Namespace: objMeta.GetNamespace(), Name: objMeta.GetName()}
	current, exists := s.objects[key]
	ev := storedEvent{typ: watch.Added, obj: obj}
	if mode == writeUpdate {
		if !exists {
			return nil, apierrors.NewNotFound(gr, key.Name)
		}
		if subresource != "" && reflect.TypeOf(obj) != reflect.TypeOf(current.obj) {
			// As in write: another type is the subresource's answer.
			return obj, nil
		}
		ev.typ, ev.prev = watch.Modified, current.obj
	} else if exists {
		return nil, apierrors.NewAlreadyExists(gr, key.Name)
	}
	s.rev++
	ev.rev = s.rev
	s.objects[key] = &storedObject{obj: obj, rev: s.rev}
	t.emit(s, ev)
	return obj.DeepCopyObject(), nil
}

// deleteObject deletes, or for an object with finalizers marks for
// deletion, the object name and returns its last state.
func (t *tracker) deleteObject(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error) {
	gr := gvr.GroupResource()
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.resources[gvr]
	if !ok {
		return nil, apierrors.NewNotFound(gr, name)
	}
	key := types.NamespacedName{Namespace: ns, Name: name}
	current, ok := s.objects[key]
	if !ok {
		return nil, apierrors.NewNotFound(gr, name)
	}
	if !t.serverLike {
		// Gone at once, whatever the finalizers, preconditions or dry-run.
		delete(s.objects, key)
		t.emit(s, storedEvent{rev: s.rev, typ: watch.Deleted, obj: current.obj, prev: current.obj})
		return current.obj.DeepCopyObject(), nil
	}
	m, err := meta.Accessor(current.obj)
	if err != nil {
		return nil, err
	}
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != m.GetUID() {
			return nil, apierrors.NewConflict(gr, name, fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, m.GetUID()))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != m.GetResourceVersion() {
			return nil, apierrors.NewConflict(gr, name, fmt.Errorf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, m.GetResourceVersion()))
		}
	}
	obj := current.obj.DeepCopyObject()
	objMeta, _ := meta.Accessor(obj)

	if len(m.GetFinalizers()) > 0 {
		if m.GetDeletionTimestamp() != nil {
			// Already terminating: nothing more to do until the
			// finalizers are gone.
			return obj, nil
		}
		ts := t.now()
		var grace int64
		objMeta.SetDeletionTimestamp(&ts)
		objMeta.SetDeletionGracePeriodSeconds(&grace)
		if len(opts.DryRun) > 0 {
			return obj, nil
		}
		t.rev++
		objMeta.SetResourceVersion(strconv.FormatInt(t.rev, 10))
		s.objects[key] = &storedObject{obj: obj, rev: t.rev}
		t.emit(s, storedEvent{rev: t.rev, typ: watch.Modified, obj: obj, prev: current.obj})
		return obj.DeepCopyObject(), nil
	}
	if len(opts.DryRun) > 0 {
		return obj, nil
	}
	t.rev++
	delete(s.objects, key)
	// The DELETED event carries the last state at the deletion's revision.
	objMeta.SetResourceVersion(strconv.FormatInt(t.rev, 10))
	t.emit(s, storedEvent{rev: t.rev, typ: watch.Deleted, obj: obj, prev: current.obj})
	return obj.DeepCopyObject(), nil
}

// checkWritePreconditions rejects an update whose resourceVersion or uid
// does not match the stored object. Empty values are unconditional, and so
// is an update of a fixture stored without a resourceVersion.
func checkWritePreconditions(gr schema.GroupResource, name string, old, updated metav1.Object) error {
	if rv := updated.GetResourceVersion(); rv != "" && old.GetResourceVersion() != "" && rv != old.GetResourceVersion() {
		return apierrors.NewConflict(gr, name, fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	if uid := updated.GetUID(); uid != "" && old.GetUID() != "" && uid != old.GetUID() {
		return apierrors.NewConflict(gr, name, fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", uid, old.GetUID()))
	}
	return nil
}

// carryServerMetadata copies the fields a client cannot change by updating
// from the stored object to its replacement. Where the stored object has
// no value (a fixture added without one) the client's value is accepted,
// so a test may still mark an object as terminating with an update.
func carryServerMetadata(old, updated metav1.Object) {
	if old.GetUID() != "" {
		updated.SetUID(old.GetUID())
	}
	if ts := old.GetCreationTimestamp(); !ts.IsZero() {
		updated.SetCreationTimestamp(ts)
	}
	if old.GetDeletionTimestamp() != nil {
		updated.SetDeletionTimestamp(old.GetDeletionTimestamp())
		updated.SetDeletionGracePeriodSeconds(old.GetDeletionGracePeriodSeconds())
	}
}

// generateName returns prefix plus a random suffix not used in ns yet.
// Called with t.mu held.
func (t *tracker) generateName(s *resourceStore, ns, prefix string) string {
	if len(prefix) > maxGenerateNamePrefix {
		prefix = prefix[:maxGenerateNamePrefix]
	}
	for {
		name := prefix + utilrand.String(generatedSuffixLen)
		if _, taken := s.objects[types.NamespacedName{Namespace: ns, Name: name}]; !taken {
			return name
		}
	}
}

// newUID returns a random (version 4) UUID.
func newUID() types.UID {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// contentOf returns the JSON-shaped content of obj. The map may share
// structure with an unstructured obj and must not be modified.
func contentOf(obj runtime.Object) (map[string]interface{}, error) {
	if u, ok := obj.(runtime.Unstructured); ok {
		return u.UnstructuredContent(), nil
	}
	return runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
}

// specChanged reports whether anything outside metadata, status and the
// type information differs between old and updated.
func specChanged(old, updated runtime.Object) (bool, error) {
	if changed, ok := typedSpecChanged(old, updated); ok {
		return changed, nil
	}
	a, err := contentOf(old)
	if err != nil {
		return false, err
	}
	b, err := contentOf(updated)
	if err != nil {
		return false, err
	}
	ignored := map[string]bool{"metadata": true, "status": true, "apiVersion": true, "kind": true}
	for k, v := range a {
		if ignored[k] {
			continue
		}
		if !equality.Semantic.DeepEqual(v, b[k]) {
			return true, nil
		}
	}
	for k := range b {
		if _, seen := a[k]; !seen && !ignored[k] {
			return true, nil
		}
	}
	return false, nil
}

// typedSpecChanged compares two typed objects of the same type field by
// field, skipping type metadata, metadata and status; ok is false when the
// objects are not typed structs of one type.
func typedSpecChanged(old, updated runtime.Object) (changed, ok bool) {
	a, b := reflect.ValueOf(old), reflect.ValueOf(updated)
	if a.Type() != b.Type() || a.Kind() != reflect.Pointer || a.Elem().Kind() != reflect.Struct {
		return false, false
	}
	if _, isUnstructured := old.(runtime.Unstructured); isUnstructured {
		return false, false
	}
	a, b = a.Elem(), b.Elem()
	t := a.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous || name == "metadata" || name == "status" || !f.IsExported() {
			continue
		}
		if !equality.Semantic.DeepEqual(a.Field(i).Interface(), b.Field(i).Interface()) {
			return true, true
		}
	}
	return false, true
}

// withStatusOf returns stored with the status of updated, as an update of
// the status subresource does: spec and metadata stay as stored, except
// for managed fields and the resourceVersion precondition.
func withStatusOf(stored, updated runtime.Object) (runtime.Object, error) {
	base, err := contentOf(stored)
	if err != nil {
		return nil, err
	}
	incoming, err := contentOf(updated)
	if err != nil {
		return nil, err
	}
	merged := runtime.DeepCopyJSON(base)
	if status, ok := incoming["status"]; ok {
		merged["status"] = runtime.DeepCopyJSONValue(status)
	} else {
		delete(merged, "status")
	}
	out := stored.DeepCopyObject()
	if u, ok := out.(runtime.Unstructured); ok {
		u.SetUnstructuredContent(merged)
	} else {
		// Reset the typed object before decoding into it so fields absent
		// from merged do not survive.
		v := reflect.ValueOf(out).Elem()
		v.Set(reflect.Zero(v.Type()))
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(merged, out); err != nil {
			return nil, err
		}
	}
	outMeta, err := meta.Accessor(out)
	if err != nil {
		return nil, err
	}
	inMeta, _ := meta.Accessor(updated)
	outMeta.SetResourceVersion(inMeta.GetResourceVersion())
	outMeta.SetManagedFields(inMeta.GetManagedFields())
	return out, nil
}

// emit records ev in the history of s (when server-like) and hands it to
// the watchers of s.
// Called with t.mu held.
func (t *tracker) emit(s *resourceStore, ev storedEvent) {
	if !t.serverLike {
		// Watches never replay: no history to keep.
		for w := range s.watchers {
			w.offer(ev)
		}
		return
	}
	s.history = append(s.history, ev)
	// Trim in batches so that a long run of writes copies the history
	// only now and then.
	if len(s.history) > t.historyLimit+t.historyLimit/4 {
		over := len(s.history) - t.historyLimit
		s.compacted = s.history[over-1].rev
		s.history = append([]storedEvent(nil), s.history[over:]...)
	}
	for w := range s.watchers {
		w.offer(ev)
	}
}
