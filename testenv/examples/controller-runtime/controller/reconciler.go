package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// ParentLabel marks the ConfigMaps the reconciler gives a child.
const ParentLabel = "recipe.kubeclient.io/parent"

// ChildName is the name of the child of the ConfigMap named parent.
func ChildName(parent string) string { return parent + "-child" }

// Reconciler keeps a child ConfigMap for every parent ConfigMap.
type Reconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with mgr under name: it
// watches parents and the ConfigMaps they own.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager, name string) error {
	r.Client = mgr.GetClient()
	isParent := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()[ParentLabel] == "true" })
	return ctrl.NewControllerManagedBy(mgr).
		Named(name).
		For(&corev1.ConfigMap{}, builder.WithPredicates(isParent)).
		Owns(&corev1.ConfigMap{}).
		Complete(r)
}

// Reconcile creates the child of the parent req names, when the parent
// exists and is not being deleted, and copies the parent's data into it.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var parent corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &parent); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !parent.DeletionTimestamp.IsZero() || parent.Labels[ParentLabel] != "true" {
		return ctrl.Result{}, nil
	}
	child := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: parent.Namespace, Name: ChildName(parent.Name)}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, child, func() error {
		child.Data = parent.Data
		return controllerutil.SetControllerReference(&parent, child, r.Scheme())
	})
	// A conflict (the cache was behind) or any other error is retried
	// with backoff by controller-runtime.
	return ctrl.Result{}, err
}
