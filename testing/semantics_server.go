package testing

import (
	"fmt"
	"reflect"
	"strconv"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// defaultHistoryLimit bounds the events remembered per resource for
// watches that start at a past resourceVersion.
const defaultHistoryLimit = 1000

// serverSemantics is the behaviour of NewServerLikeObjectTracker, modelled
// on the API server: one resourceVersion shared by all resources (like
// etcd's revision) is stored in every object written, server-owned metadata
// is filled in, stale resourceVersions conflict, generation follows spec
// changes, finalizers delay deletion, dry-run requests are not persisted,
// lists and watches honour selectors and pages, and each resource keeps a
// bounded history that watches from a past resourceVersion replay.
type serverSemantics struct {
	rev          int64              // the last resourceVersion handed out; an empty tracker is at 1
	now          func() metav1.Time // creation and deletion timestamps
	historyLimit int                // events kept per resource
}

func newServerSemantics() *serverSemantics {
	return &serverSemantics{
		rev:          1,
		now:          func() metav1.Time { return metav1.Now().Rfc3339Copy() },
		historyLimit: defaultHistoryLimit,
	}
}

func (m *serverSemantics) version(*resourceStore) int64 { return m.rev }

// commit stores obj under key at a new resourceVersion (written into obj
// when stamp is set) and records and sends the change. A DELETED change
// removes the key.
func (m *serverSemantics) commit(s *resourceStore, key types.NamespacedName, typ watch.EventType, obj, prev runtime.Object, stamp bool) runtime.Object {
	m.rev++
	if stamp {
		if objMeta, err := meta.Accessor(obj); err == nil {
			objMeta.SetResourceVersion(strconv.FormatInt(m.rev, 10))
		}
	}
	if typ == watch.Deleted {
		delete(s.objects, key)
	} else {
		s.objects[key] = &storedObject{obj: obj, rev: m.rev}
	}
	m.record(s, storedEvent{rev: m.rev, typ: typ, obj: obj, prev: prev})
	return obj.DeepCopyObject()
}

// record appends ev to the history of s and sends it to the watchers of s.
func (m *serverSemantics) record(s *resourceStore, ev storedEvent) {
	s.history = append(s.history, ev)
	// Trim in batches so that a long run of writes copies the history
	// only now and then.
	if len(s.history) > m.historyLimit+m.historyLimit/4 {
		over := len(s.history) - m.historyLimit
		s.compacted = s.history[over-1].rev
		s.history = append([]storedEvent(nil), s.history[over:]...)
	}
	s.broadcast(ev)
}

func (m *serverSemantics) write(s *resourceStore, w writeRequest) (runtime.Object, error) {
	objMeta := w.objMeta
	if w.mode == writeCreate && objMeta.GetName() == "" && objMeta.GetGenerateName() != "" {
		objMeta.SetName(generateName(s, objMeta.GetNamespace(), objMeta.GetGenerateName()))
	}
	key := w.key()
	current, exists := s.objects[key]
	switch {
	case w.mode != writeUpdate && exists:
		return nil, apierrors.NewAlreadyExists(w.gr, key.Name)
	case w.mode == writeAdd:
		// A fixture keeps its own metadata; only make sure later writes
		// get higher versions than a numeric resourceVersion it carries.
		if rv, err := strconv.ParseInt(objMeta.GetResourceVersion(), 10, 64); err == nil && rv > m.rev {
			m.rev = rv
		}
		return m.commit(s, key, watch.Added, w.obj, nil, false), nil
	case w.mode == writeCreate:
		fillCreateMetadata(objMeta, m.now)
		if w.opts.isDryRun() {
			objMeta.SetResourceVersion("")
			return w.obj, nil
		}
		return m.commit(s, key, watch.Added, w.obj, nil, true), nil
	case !exists:
		return nil, apierrors.NewNotFound(w.gr, key.Name)
	}
	return m.update(s, w, key, current)
}

// fillCreateMetadata sets the server-owned metadata of a new object that
// the client left unset.
func fillCreateMetadata(objMeta metav1.Object, now func() metav1.Time) {
	if objMeta.GetUID() == "" {
		objMeta.SetUID(newUID())
	}
	if ts := objMeta.GetCreationTimestamp(); ts.IsZero() {
		objMeta.SetCreationTimestamp(now())
	}
	if objMeta.GetGeneration() == 0 {
		objMeta.SetGeneration(1)
	}
}

// update replaces current with w.obj: preconditions are checked, server
// metadata carried over, generation bumped on a spec change, a no-op
// skipped, and an object whose deletion waited for its last finalizer
// removed.
func (m *serverSemantics) update(s *resourceStore, w writeRequest, key types.NamespacedName, current *storedObject) (runtime.Object, error) {
	obj, objMeta := w.obj, w.objMeta
	if w.subresource != "" && reflect.TypeOf(obj) != reflect.TypeOf(current.obj) {
		// A subresource of another type is the answer to the request.
		return obj, nil
	}
	oldMeta, err := meta.Accessor(current.obj)
	if err != nil {
		return nil, err
	}
	if err := checkWritePreconditions(w.gr, key.Name, oldMeta, objMeta); err != nil {
		return nil, err
	}
	if w.subresource == "status" {
		if obj, err = withStatusOf(current.obj, obj); err != nil {
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
	if w.opts.isDryRun() {
		return obj, nil
	}
	if finalized {
		return m.commit(s, key, watch.Deleted, obj, current.obj, true), nil
	}
	return m.commit(s, key, watch.Modified, obj, current.obj, true), nil
}

// remove honours the UID and resourceVersion preconditions of opts; an
// object with finalizers is only marked with a deletionTimestamp and goes
// away when an update removes its last finalizer.
func (m *serverSemantics) remove(s *resourceStore, key types.NamespacedName, current *storedObject, gr schema.GroupResource, opts metav1.DeleteOptions) (runtime.Object, error) {
	stored, err := meta.Accessor(current.obj)
	if err != nil {
		return nil, err
	}
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != stored.GetUID() {
			return nil, apierrors.NewConflict(gr, key.Name, fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, stored.GetUID()))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != stored.GetResourceVersion() {
			return nil, apierrors.NewConflict(gr, key.Name, fmt.Errorf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, stored.GetResourceVersion()))
		}
	}
	obj := current.obj.DeepCopyObject()
	objMeta, _ := meta.Accessor(obj)
	dryRun := len(opts.DryRun) > 0

	if len(stored.GetFinalizers()) == 0 {
		if dryRun {
			return obj, nil
		}
		// The DELETED event carries the last state at the deletion's
		// resourceVersion.
		return m.commit(s, key, watch.Deleted, obj, current.obj, true), nil
	}
	if stored.GetDeletionTimestamp() != nil {
		// Already terminating: nothing more to do until the finalizers
		// are gone.
		return obj, nil
	}
	ts := m.now()
	var grace int64
	objMeta.SetDeletionTimestamp(&ts)
	objMeta.SetDeletionGracePeriodSeconds(&grace)
	if dryRun {
		return obj, nil
	}
	return m.commit(s, key, watch.Modified, obj, current.obj, true), nil
}

func (m *serverSemantics) listOptions(opts metav1.ListOptions) metav1.ListOptions { return opts }

// watchPlan: without options a watch sees only future changes; at "" or
// "0", or for a streaming list, it starts with every matching object; at a
// version N it replays the changes after N.
func (m *serverSemantics) watchPlan(ns string, opts []metav1.ListOptions) (watchPlan, error) {
	var o metav1.ListOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	sel, err := newObjectSelector(ns, o)
	if err != nil {
		return watchPlan{}, err
	}
	streaming := o.SendInitialEvents != nil && *o.SendInitialEvents
	switch rv := o.ResourceVersion; {
	case len(opts) == 0:
		return watchPlan{sel: sel, start: startFromNow}, nil
	case rv == "" || rv == "0" || streaming:
		return watchPlan{sel: sel, start: startWithStored, after: allStored, bookmark: streaming && o.AllowWatchBookmarks}, nil
	default:
		after, err := strconv.ParseInt(rv, 10, 64)
		if err != nil || after < 0 {
			return watchPlan{}, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q: must be a non-negative integer", rv))
		}
		return watchPlan{sel: sel, start: startWithHistory, after: after}, nil
	}
}

func (m *serverSemantics) createsOnApply() bool { return true }

func (m *serverSemantics) splitsStatus() bool { return true }
