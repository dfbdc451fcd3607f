// Package controller is the controller of the recipe: a controller-runtime
// reconciler that gives every ConfigMap labelled
// recipe.kubeclient.io/parent=true a child ConfigMap "<name>-child", owned
// by the parent through a controller owner reference. It deletes nothing:
// when the parent goes, kube-controller-manager's garbage collector removes
// the child, which is what its tests check on testenv.
package controller
