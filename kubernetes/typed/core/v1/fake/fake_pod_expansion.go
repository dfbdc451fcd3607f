package fake

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

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

// defaultPodLogs is the log text GetLogs serves when no reactor answers.
const defaultPodLogs = "fake logs"

// GetLogs records a get of the log subresource, carrying opts as its
// value, and returns a request whose response body is the log text the
// reactors answer with: the Raw bytes of a *runtime.Unknown, "fake logs"
// when no reactor handles the action. A reactor's error, or an answer of
// another type, becomes the error of the request's Do, DoRaw and Stream.
func (c *fakePods) GetLogs(name string, opts *corev1.PodLogOptions) *restclient.Request {
	action := testing.GenericActionImpl{
		ActionImpl: testing.ActionImpl{Namespace: c.Namespace(), Verb: "get", Resource: podsResource, Subresource: "log"},
		Value:      opts,
	}
	logs, err := podLogsFrom(c.Fake.Invokes(action, &runtime.Unknown{Raw: []byte(defaultPodLogs)}))
	client := &fakerest.RESTClient{
		NegotiatedSerializer: scheme.Codecs.WithoutConversion(),
		GroupVersion:         corev1.SchemeGroupVersion,
		VersionedAPIPath:     fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/log", c.Namespace(), name),
		Client: fakerest.CreateHTTPClient(func(*http.Request) (*http.Response, error) {
			if err != nil {
				return nil, err
			}
			return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(logs))}, nil
		}),
	}
	return client.Request()
}

// podLogsFrom turns the answer of the reactor chain to a log request into
// the log text.
func podLogsFrom(answer runtime.Object, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	if unknown, ok := answer.(*runtime.Unknown); ok && unknown != nil {
		return unknown.Raw, nil
	}
	return nil, fmt.Errorf("fake Pods.GetLogs expected reactor to return *runtime.Unknown, got %T", answer)
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
