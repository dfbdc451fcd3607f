// Package auth tests how our clients authenticate to and are authorised by
// a real kube-apiserver: static tokens, token files, exec credential
// plugins, kubeconfig loading, impersonation and RBAC.
package auth

import (
	"testing"

	"github.com/kubeclient/client-go/test/integration/framework"
)

var controlPlane *framework.ControlPlane

func TestMain(m *testing.M) { framework.RunMain(m, &controlPlane) }
