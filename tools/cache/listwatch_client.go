package cache

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	restclient "github.com/kubeclient/client-go/rest"
)

// Getter gives access to a REST client's Get method.
type Getter interface {
	Get() *restclient.Request
}

// NewListWatchFromClient returns a ListWatch for resource in namespace,
// restricted by fieldSelector. All four function fields are set.
func NewListWatchFromClient(c Getter, resource string, namespace string, fieldSelector fields.Selector) *ListWatch {
	return NewFilteredListWatchFromClient(c, resource, namespace, func(options *metav1.ListOptions) {
		options.FieldSelector = fieldSelector.String()
	})
}

// NewFilteredListWatchFromClient returns a ListWatch for resource in
// namespace whose requests' options are first passed through
// optionsModifier (to set selectors and the like). All four function
// fields are set, for callers that only know the deprecated ones.
func NewFilteredListWatchFromClient(c Getter, resource string, namespace string, optionsModifier func(options *metav1.ListOptions)) *ListWatch {
	request := func(options metav1.ListOptions) *restclient.Request {
		optionsModifier(&options)
		return c.Get().Namespace(namespace).Resource(resource).VersionedParams(&options, metav1.ParameterCodec)
	}
	list := func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
		return request(options).Do(ctx).Get()
	}
	watchFrom := func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
		options.Watch = true
		return request(options).Watch(ctx)
	}
	return &ListWatch{
		ListFunc:             inBackground(list),
		WatchFunc:            inBackground(watchFrom),
		ListWithContextFunc:  list,
		WatchFuncWithContext: watchFrom,
	}
}

// inBackground adapts a function taking a context to the deprecated
// function fields of ListWatch, which get context.Background().
func inBackground[R any](fn optionsCall[R]) func(metav1.ListOptions) (R, error) {
	return func(options metav1.ListOptions) (R, error) { return fn(context.Background(), options) }
}
