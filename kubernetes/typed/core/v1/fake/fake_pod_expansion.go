package fake

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	policyv1beta1 "k8s.io/api/policy/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	restclient "github.com/kubeclient/client-go/rest"
	fakerest "github.com/kubeclient/client-go/rest/fake"
	"github.com/kubeclient/client-go/testing"
)

// podsResource is the resource pod subresource actions are recorded on.
var podsResource = corev1.SchemeGroupVersion.WithResource("pods")

// Bind records a create of the binding subresource; the tracker assigns the
// pod to binding.Target.Name.
func (c *fakePods) Bind(ctx context.Context, binding *corev1.Binding, opts metav1.CreateOptions) error {
	action := testing.NewCreateSubresourceActionWithOptions(podsResource, binding.Name, "binding", c.Namespace(), binding, opts)
	_, err := c.Fake.Invokes(action, binding)
	return err
}

// GetBinding records a get of the binding subresource and returns what the
// reactors answer.
func (c *fakePods) GetBinding(name string) (*corev1.Binding, error) {
	obj, err := c.Fake.Invokes(testing.NewGetSubresourceAction(podsResource, c.Namespace(), "binding", name), &corev1.Binding{})
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Binding), err
}

// GetLogs records a get of the log subresource and returns a request whose
// response body reads "fake logs"; an error from a reactor fails the request.
func (c *fakePods) GetLogs(name string, opts *corev1.PodLogOptions) *restclient.Request {
	action := testing.GenericActionImpl{
		ActionImpl: testing.ActionImpl{Namespace: c.Namespace(), Verb: "get", Resource: podsResource, Subresource: "log"},
		Value:      opts,
	}
	_, err := c.Fake.Invokes(action, &corev1.Pod{})
	client := &fakerest.RESTClient{
		NegotiatedSerializer: scheme.Codecs.WithoutConversion(),
		GroupVersion:         corev1.SchemeGroupVersion,
		VersionedAPIPath:     fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/log", c.Namespace(), name),
		Err:                  err,
		Client: fakerest.CreateHTTPClient(func(*http.Request) (*http.Response, error) {
			return &http.Response{
				StatusCode: http.StatusOK,
				Header:     http.Header{"Content-Type": []string{"text/plain"}},
				Body:       io.NopCloser(strings.NewReader("fake logs")),
			}, nil
		}),
	}
	return client.Request()
}

// Evict posts a policy/v1beta1 eviction of the pod it names.
func (c *fakePods) Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.evict(eviction.Name, eviction)
}

// EvictV1 records a create of the eviction subresource; the tracker deletes
// the pod.
func (c *fakePods) EvictV1(ctx context.Context, eviction *policyv1.Eviction) error {
	return c.evict(eviction.Name, eviction)
}

// EvictV1beta1 is EvictV1 with a policy/v1beta1 eviction.
func (c *fakePods) EvictV1beta1(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	return c.evict(eviction.Name, eviction)
}

func (c *fakePods) evict(name string, eviction runtime.Object) error {
	action := testing.NewCreateSubresourceAction(podsResource, name, "eviction", c.Namespace(), eviction)
	_, err := c.Fake.Invokes(action, eviction)
	return err
}

// ProxyGet records a proxy get on the pod and returns what the proxy
// reactors answer.
func (c *fakePods) ProxyGet(scheme, name, port, path string, params map[string]string) restclient.ResponseWrapper {
	return c.Fake.InvokesProxy(testing.NewProxyGetAction(podsResource, c.Namespace(), scheme, name, port, path, params))
}
