package v1

import (
	utilnet "k8s.io/apimachinery/pkg/util/net"

	"github.com/kubeclient/client-go/rest"
)

// proxyGet is the ProxyGet of pods and services: a GET through the API
// server's proxy subresource of the object addressed as [scheme:]name[:port]
// in namespace, at path, with params as the query.
func proxyGet(client rest.Interface, namespace, resource, scheme, name, port, path string, params map[string]string) rest.ResponseWrapper {
	target := utilnet.JoinSchemeNamePort(scheme, name, port)
	req := client.Get().Namespace(namespace).Resource(resource).SubResource("proxy").Name(target).Suffix(path)
	for key, value := range params {
		req = req.Param(key, value)
	}
	return req
}
