package csaupgrade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// FindFieldsOwners returns the managedFields entries of the given operation
// whose field set contains every field of fields. Entries whose field set
// cannot be decoded are skipped.
func FindFieldsOwners(managedFields []metav1.ManagedFieldsEntry, operation metav1.ManagedFieldsOperationType, fields *fieldpath.Set) []metav1.ManagedFieldsEntry {
	return keepOnly(managedFields, func(e metav1.ManagedFieldsEntry) bool {
		if e.Operation != operation {
			return false
		}
		owned, err := decodeFieldSet(e)
		return err == nil && fields.Difference(owned).Empty()
	})
}

// keepOnly returns the elements of s for which keep is true, in order; nil
// when there are none.
func keepOnly[T any](s []T, keep func(T) bool) []T {
	var kept []T
	for _, v := range s {
		if keep(v) {
			kept = append(kept, v)
		}
	}
	return kept
}

// UpgradeManagedFields rewrites the managedFields of obj so that the fields
// owned through Update operations by any manager in csaManagerNames are
// owned through an Apply operation by ssaManagerName, and removes those
// Update entries.
//
// If ssaManagerName already has an Apply entry, the client-side apply
// manager's fields of the same API version are merged into it; otherwise
// the most recent matching Update entry becomes the Apply entry. An object
// without such entries is left as it is.
//
// The upgrade cannot be undone, works before or after a first server-side
// apply, and may drop ownership of defaulted fields (they are defaulted
// again). When writing the result back, make sure the managedFields on the
// server did not change in between (UpgradeManagedFieldsPatch does).
func UpgradeManagedFields(obj runtime.Object, csaManagerNames sets.Set[string], ssaManagerName string, opts ...Option) error {
	accessor, upgraded, err := upgrade(obj, csaManagerNames, ssaManagerName, opts)
	if err != nil {
		return err
	}
	accessor.SetManagedFields(upgraded)
	return nil
}

// UpgradeManagedFieldsPatch computes the upgrade of UpgradeManagedFields
// without changing obj and returns it as a JSON patch, or nil when there is
// nothing to upgrade. The patch replaces metadata.managedFields and also
// metadata.resourceVersion with obj's, so that the server rejects it with a
// conflict if the object changed since obj was read.
func UpgradeManagedFieldsPatch(obj runtime.Object, csaManagerNames sets.Set[string], ssaManagerName string, opts ...Option) ([]byte, error) {
	accessor, upgraded, err := upgrade(obj, csaManagerNames, ssaManagerName, opts)
	if err != nil {
		return nil, err
	}
	if reflect.DeepEqual(accessor.GetManagedFields(), upgraded) {
		return nil, nil
	}
	type operation struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	return json.Marshal([]operation{
		{Op: "replace", Path: "/metadata/managedFields", Value: upgraded},
		// "replace" rather than "test": a stale resourceVersion then fails
		// with 409 Conflict, which callers know to retry.
		{Op: "replace", Path: "/metadata/resourceVersion", Value: accessor.GetResourceVersion()},
	})
}

// upgrade computes the upgraded managedFields of obj, leaving obj as it is.
func upgrade(obj runtime.Object, csaManagerNames sets.Set[string], ssaManagerName string, opts []Option) (metav1.Object, []metav1.ManagedFieldsEntry, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot upgrade managed fields: %w", err)
	}
	entries := accessor.GetManagedFields()
	for _, csaManager := range sets.List(csaManagerNames) {
		entries, err = upgradeManager(entries, csaManager, ssaManagerName, o.subresource)
		if err != nil {
			return nil, nil, err
		}
	}
	return accessor, entries, nil
}

// upgradeManager returns a copy of entries in which csaManager's Update
// entries of subresource are folded into ssaManager's Apply entry.
func upgradeManager(entries []metav1.ManagedFieldsEntry, csaManager, ssaManager, subresource string) ([]metav1.ManagedFieldsEntry, error) {
	if entries == nil {
		return nil, nil
	}
	entries = append([]metav1.ManagedFieldsEntry(nil), entries...)

	isCSA := func(e metav1.ManagedFieldsEntry) bool {
		return e.Manager == csaManager && e.Operation == metav1.ManagedFieldsOperationUpdate && e.Subresource == subresource
	}
	target := slices.IndexFunc(entries, func(e metav1.ManagedFieldsEntry) bool {
		return e.Manager == ssaManager && e.Operation == metav1.ManagedFieldsOperationApply && e.Subresource == subresource
	})
	if target < 0 {
		// No Apply entry yet: the most recent client-side apply entry
		// (entries are sorted newest first) becomes it.
		target = slices.IndexFunc(entries, isCSA)
		if target < 0 {
			return entries, nil
		}
		entries[target].Manager = ssaManager
		entries[target].Operation = metav1.ManagedFieldsOperationApply
	}
	if err := mergeInto(entries, target, func(e metav1.ManagedFieldsEntry) bool {
		return isCSA(e) && e.APIVersion == entries[target].APIVersion
	}); err != nil {
		return nil, err
	}

	return keepOnly(entries, func(e metav1.ManagedFieldsEntry) bool { return !isCSA(e) }), nil
}

// mergeInto adds the fields of the first entry matching source to the field
// set of entries[target]. Only entries[target] is changed.
func mergeInto(entries []metav1.ManagedFieldsEntry, target int, source func(metav1.ManagedFieldsEntry) bool) error {
	merged, err := decodeFieldSet(entries[target])
	if err != nil {
		return fmt.Errorf("failed to convert fields to set: %w", err)
	}
	if from := slices.IndexFunc(entries, source); from >= 0 {
		extra, err := decodeFieldSet(entries[from])
		if err != nil {
			return fmt.Errorf("failed to convert fields to set: %w", err)
		}
		merged = merged.Union(extra)
	}
	raw, err := merged.ToJSON()
	if err != nil {
		return fmt.Errorf("failed to encode field set: %w", err)
	}
	// A fresh FieldsV1: the entries share theirs with the caller's object.
	entries[target].FieldsV1 = &metav1.FieldsV1{Raw: raw}
	return nil
}

// decodeFieldSet decodes the field set of entry; an entry without one owns
// nothing.
func decodeFieldSet(entry metav1.ManagedFieldsEntry) (*fieldpath.Set, error) {
	set := &fieldpath.Set{}
	if entry.FieldsV1 == nil || len(entry.FieldsV1.Raw) == 0 {
		return set, nil
	}
	if err := set.FromJSON(bytes.NewReader(entry.FieldsV1.Raw)); err != nil {
		return nil, err
	}
	return set, nil
}
