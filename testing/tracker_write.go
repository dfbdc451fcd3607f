package testing

import (
	"crypto/rand"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
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

// write checks obj and hands it, copied and with the namespace of the
// request, to the tracker's semantics to store under gvr with the meaning
// of mode. It returns a copy of what was stored (for a dry run, of what
// would have been); subresource "status" restricts an update to the status
// where the semantics split it off.
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
	return t.sem.write(t.store(gvr), writeRequest{gr: gr, subresource: subresource, obj: obj, objMeta: objMeta, mode: mode, opts: opts})
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
	return t.sem.remove(s, key, current, gr, opts)
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

// generateName returns prefix plus a random suffix not used in ns of s yet.
// Called with the tracker's lock held.
func generateName(s *resourceStore, ns, prefix string) string {
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
