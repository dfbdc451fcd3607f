// Package clientset tests the generated typed clientset (package
// kubernetes) against a real kube-apiserver: CRUD, the status subresource,
// the three patch types, server-side apply, DeleteCollection and dry run,
// in JSON and, where the test runs per wire format, in protobuf.
package clientset

import (
	"testing"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/testenv"
)

var controlPlane *framework.ControlPlane

// TestMain starts the control plane without the deployment controller:
// the tests write Deployment status themselves, which the controller would
// overwrite (and make their updates conflict).
func TestMain(m *testing.M) {
	var controllers []string
	for _, c := range testenv.DefaultControllers {
		if c != "deployment-controller" {
			controllers = append(controllers, c)
		}
	}
	framework.RunMainWithOptions(m, &controlPlane, testenv.Options{Controllers: controllers})
}

func newClientset(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	return newClientsetFor(t, framework.ContentTypeJSON)
}

// newClientsetFor returns an admin clientset that sends and accepts
// contentType; when t ends, it fails t if any body went either way in
// another format.
func newClientsetFor(t *testing.T, contentType string) *kubernetes.Clientset {
	t.Helper()
	cfg := controlPlane.AdminConfig()
	cfg.ContentType = contentType
	cfg.AcceptContentTypes = contentType
	var wire framework.WireLog
	wire.Attach(cfg)
	t.Cleanup(func() { wire.Check(t, contentType) })
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	return cs
}
