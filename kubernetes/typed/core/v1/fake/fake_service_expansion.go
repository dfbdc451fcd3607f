package fake

import (
	corev1 "k8s.io/api/core/v1"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/testing"
)

// ProxyGet records a proxy get on the service and returns what the proxy
// reactors answer.
func (c *fakeServices) ProxyGet(scheme, name, port, path string, params map[string]string) restclient.ResponseWrapper {
	return c.Fake.InvokesProxy(testing.NewProxyGetAction(corev1.SchemeGroupVersion.WithResource("services"), c.Namespace(), scheme, name, port, path, params))
}
