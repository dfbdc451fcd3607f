package controllermanager

import (
	"context"
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
)

// ownerWithDependents creates a ConfigMap owner and n ConfigMaps that name
// it as owner (blocking the owner's foreground deletion), and returns the
// owner and the dependents' names.
func ownerWithDependents(t *testing.T, cs kubernetes.Interface, ns string, n int) (*corev1.ConfigMap, []string) {
	t.Helper()
	ctx := context.Background()
	owner, err := cs.CoreV1().ConfigMaps(ns).Create(ctx,
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	block := true
	var names []string
	for i := range n {
		dep := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("dependent-%d", i),
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID,
				BlockOwnerDeletion: &block,
			}},
		}}
		if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, dep, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		names = append(names, dep.Name)
	}
	return owner, names
}

// remaining returns the names among names that still exist in ns.
func remaining(ctx context.Context, cs kubernetes.Interface, ns string, names []string) ([]string, error) {
	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var left []string
	for _, cm := range list.Items {
		if slices.Contains(names, cm.Name) {
			left = append(left, cm.Name)
		}
	}
	return left, nil
}

func deleteWith(policy metav1.DeletionPropagation) metav1.DeleteOptions {
	return metav1.DeleteOptions{PropagationPolicy: &policy}
}

// TestGarbageCollectionBackground deletes an owner in background mode: the
// owner is gone at once and the garbage collector then deletes the
// dependents.
func TestGarbageCollectionBackground(t *testing.T) {
	cs := newClientset(t)
	ns := env.Namespace(t)
	ctx := context.Background()
	owner, deps := ownerWithDependents(t, cs, ns, 5)
	if err := cs.CoreV1().ConfigMaps(ns).Delete(ctx, owner.Name, deleteWith(metav1.DeletePropagationBackground)); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, owner.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("owner after a background delete: err = %v, want NotFound", err)
	}
	eventually(t, "dependents collected", func(ctx context.Context) (bool, error) {
		left, err := remaining(ctx, cs, ns, deps)
		return len(left) == 0, err
	})
}

// TestGarbageCollectionForeground deletes an owner in foreground mode: the
// owner stays, marked for deletion with the foregroundDeletion finalizer,
// until the garbage collector has deleted the dependents that block it, and
// then goes too.
func TestGarbageCollectionForeground(t *testing.T) {
	cs := newClientset(t)
	ns := env.Namespace(t)
	ctx := context.Background()
	owner, deps := ownerWithDependents(t, cs, ns, 5)
	if err := cs.CoreV1().ConfigMaps(ns).Delete(ctx, owner.Name, deleteWith(metav1.DeletePropagationForeground)); err != nil {
		t.Fatal(err)
	}
	// The API server answers the delete by setting the finalizer; the owner
	// may already be gone when the collector was fast.
	got, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, owner.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		t.Fatal(err)
	case got.DeletionTimestamp == nil || !slices.Contains(got.Finalizers, metav1.FinalizerDeleteDependents):
		t.Errorf("owner after a foreground delete: deletionTimestamp %v finalizers %v, want set and %q",
			got.DeletionTimestamp, got.Finalizers, metav1.FinalizerDeleteDependents)
	}
	eventually(t, "dependents and then the owner collected", func(ctx context.Context) (bool, error) {
		left, err := remaining(ctx, cs, ns, append([]string{owner.Name}, deps...))
		return len(left) == 0, err
	})
}

// TestGarbageCollectionOrphan deletes an owner in orphan mode: the
// dependents stay, and the garbage collector removes their reference to the
// deleted owner before the owner goes.
func TestGarbageCollectionOrphan(t *testing.T) {
	cs := newClientset(t)
	ns := env.Namespace(t)
	ctx := context.Background()
	owner, deps := ownerWithDependents(t, cs, ns, 5)
	if err := cs.CoreV1().ConfigMaps(ns).Delete(ctx, owner.Name, deleteWith(metav1.DeletePropagationOrphan)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "owner deleted", func(ctx context.Context) (bool, error) {
		_, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, owner.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
	for _, name := range deps {
		dep, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Errorf("dependent %s after an orphan delete: %v", name, err)
			continue
		}
		if len(dep.OwnerReferences) != 0 {
			t.Errorf("dependent %s still names owners %v", name, dep.OwnerReferences)
		}
	}
}
