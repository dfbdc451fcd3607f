package v1

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/rest"
)

// PodExpansion holds the hand-written methods of PodInterface: pod
// subresources that do not fit the generated verbs.
type PodExpansion interface {
	Bind(ctx context.Context, binding *corev1.Binding, opts metav1.CreateOptions) error
	// Evict posts a policy/v1beta1 eviction; prefer EvictV1.
	Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error
	EvictV1(ctx context.Context, eviction *policyv1.Eviction) error
	EvictV1beta1(ctx context.Context, eviction *policyv1beta1.Eviction) error
	GetLogs(name string, opts *corev1.PodLogOptions) *rest.Request
	ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper
}

// postToPod posts body to a subresource of the pod called name.
func (c *pods) postToPod(ctx context.Context, name, subresource string, body any) *rest.Request {
	return c.GetClient().Post().
		Namespace(c.GetNamespace()).
		Resource("pods").
		Name(name).
		SubResource(subresource).
		Body(body)
}

// Bind assigns the pod named by binding to the binding's target node. The
// binding's own namespace is ignored: the client's namespace is used.
func (c *pods) Bind(ctx context.Context, binding *corev1.Binding, opts metav1.CreateOptions) error {
	return c.postToPod(ctx, binding.Name, "binding", binding).
		VersionedParams(&opts, scheme.ParameterCodec).
		Do(ctx).
		Error()
}

// Evict asks the server to evict the pod named by eviction, honouring
// disruption budgets. It sends a policy/v1beta1 Eviction.
func (c *pods) Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.EvictV1beta1(ctx, eviction)
}

// EvictV1 is Evict with a policy/v1 Eviction.
func (c *pods) EvictV1(ctx context.Context, eviction *policyv1.Eviction) error {
	return c.postToPod(ctx, eviction.Name, "eviction", eviction).Do(ctx).Error()
}

// EvictV1beta1 is Evict with a policy/v1beta1 Eviction.
func (c *pods) EvictV1beta1(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.postToPod(ctx, eviction.Name, "eviction", eviction).Do(ctx).Error()
}

// GetLogs returns the request that reads the logs of the pod called name;
// call Stream or Do on it.
func (c *pods) GetLogs(name string, opts *corev1.PodLogOptions) *rest.Request {
	return c.GetClient().Get().
		Namespace(c.GetNamespace()).
		Resource("pods").
		Name(name).
		SubResource("log").
		VersionedParams(opts, scheme.ParameterCodec)
}

// ProxyGet sends a GET through the API server's proxy to port of the pod
// called name, using scheme (http or https, empty for the default), at path
// with the query parameters params.
func (c *pods) ProxyGet(scheme, name, port, path string, params map[string]string) rest.ResponseWrapper {
	return proxyGet(c.GetClient(), c.GetNamespace(), "pods", scheme, name, port, path, params)
}
