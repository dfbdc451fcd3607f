// Package clientset tests the generated typed clientset (package
// kubernetes) against a real kube-apiserver: CRUD, the status subresource,
// the three patch types, server-side apply, DeleteCollection and dry run.
package clientset

import (
	"testing"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/test/integration/framework"
)

var controlPlane *framework.ControlPlane

func TestMain(m *testing.M) { framework.RunMain(m, &controlPlane) }

func newClientset(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	return cs
}
