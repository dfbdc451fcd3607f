// Package discovery tests the discovery client against a real
// kube-apiserver: aggregated and legacy discovery agree, and the server
// version is the one the control plane was built from; a CustomResource
// Definition appears in (and leaves) discovery, cached discovery included.
package discovery

import (
	"testing"

	"github.com/kubeclient/client-go/test/integration/framework"
)

var controlPlane *framework.ControlPlane

func TestMain(m *testing.M) { framework.RunMain(m, &controlPlane) }
