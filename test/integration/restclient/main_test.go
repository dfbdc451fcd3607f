// Package restclient tests rest.RESTClient against a real kube-apiserver:
// CRUD in JSON and protobuf, API errors, watch and pagination.
package restclient

import (
	"testing"

	"github.com/kubeclient/client-go/test/integration/framework"
)

var controlPlane *framework.ControlPlane

func TestMain(m *testing.M) { framework.RunMain(m, &controlPlane) }
