package main

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kubeclient/client-go/bench/internal/harness"
)

// Lib is controller-runtime over the client library of this build. It
// offers only the cr-* workloads (harness.ControllerRuntime); the embedded
// harness.Lib is nil and never called, since crbench runs no other
// workload.
type Lib struct{ harness.Lib }

var _ harness.ControllerRuntime = Lib{}

// Name implements harness.Lib.
func (Lib) Name() string { return libName() }

// config is the rest.Config a controller-runtime program gets from its
// kubeconfig: no content type, so that controller-runtime picks protobuf
// for built-in types; JSON when asked.
func config(host string, protobuf bool) *rest.Config {
	c := &rest.Config{Host: host, QPS: -1, Burst: 1 << 20}
	if !protobuf {
		c.ContentType = runtime.ContentTypeJSON
	}
	return c
}

// options are the scheme and a static RESTMapper (the fake server serves
// no discovery): what a manager passes to its cache and client.
func options() (*runtime.Scheme, meta.RESTMapper, error) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, nil, err
	}
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(corev1.SchemeGroupVersion.WithKind("Pod"), meta.RESTScopeNamespace)
	return scheme, mapper, nil
}

// CacheInformer implements harness.ControllerRuntime.
func (Lib) CacheInformer(host string, protobuf bool) (harness.Informer, error) {
	return cacheInformer(host, protobuf, &corev1.Pod{})
}

// CacheUnstructuredInformer implements harness.ControllerRuntime.
func (Lib) CacheUnstructuredInformer(host string) (harness.Informer, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Pod"))
	return cacheInformer(host, false, u)
}

// cacheInformer is the informer of a new controller-runtime cache for
// obj's kind; running it starts the cache.
func cacheInformer(host string, protobuf bool, obj client.Object) (harness.Informer, error) {
	scheme, mapper, err := options()
	if err != nil {
		return harness.Informer{}, err
	}
	c, err := cache.New(config(host, protobuf), cache.Options{Scheme: scheme, Mapper: mapper})
	if err != nil {
		return harness.Informer{}, err
	}
	inf, err := c.GetInformer(context.Background(), obj)
	if err != nil {
		return harness.Informer{}, err
	}
	store, ok := inf.(interface{ GetStore() toolscache.Store })
	if !ok {
		return harness.Informer{}, fmt.Errorf("controller-runtime's informer %T has no store", inf)
	}
	return harness.Informer{
		Run:       func(ctx context.Context) { _ = c.Start(ctx) },
		HasSynced: inf.HasSynced,
		Len:       func() int { return len(store.GetStore().ListKeys()) },
		List:      store.GetStore().List,
		AddHandler: func(h *harness.Counter) error {
			_, err := inf.AddEventHandler(h)
			return err
		},
	}, nil
}

// ClientPods implements harness.ControllerRuntime.
func (Lib) ClientPods(host string, protobuf bool) (harness.PodClient, error) {
	scheme, mapper, err := options()
	if err != nil {
		return harness.PodClient{}, err
	}
	c, err := client.New(config(host, protobuf), client.Options{Scheme: scheme, Mapper: mapper})
	if err != nil {
		return harness.PodClient{}, err
	}
	return harness.PodClient{
		Get: func(ctx context.Context, ns, name string) error {
			return c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &corev1.Pod{})
		},
		List: func(ctx context.Context) (int, error) {
			var l corev1.PodList
			if err := c.List(ctx, &l, client.InNamespace(metav1.NamespaceAll)); err != nil {
				return 0, err
			}
			return len(l.Items), nil
		},
	}, nil
}
