package v1

import (
	"github.com/kubeclient/client-go/rest"
)

// ServiceExpansion holds the hand-written methods of ServiceInterface.
type ServiceExpansion interface {
	ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper
}

// ProxyGet sends a GET through the API server's proxy to port of the
// service called name, using scheme (http or https, empty for the default),
// at path with the query parameters params.
func (c *services) ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper {
	return proxyGet(c.GetClient(), c.GetNamespace(), "services", scheme, name, port, path, params)
}
