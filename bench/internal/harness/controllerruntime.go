package harness

import (
	"context"
	"fmt"

	"github.com/kubeclient/client-go/bench/internal/fixture"
)

// ControllerRuntime is what crbench's Lib offers: controller-runtime
// v0.25.3's cache and client over the library it was built with (client-go,
// or kubeclient through the drop-in).
type ControllerRuntime interface {
	// CacheInformer is the informer of controller-runtime's cache for
	// typed Pods (cache.Cache.GetInformer(&corev1.Pod{})), over protobuf
	// or JSON.
	CacheInformer(host string, protobuf bool) (Informer, error)
	// CacheUnstructuredInformer is the cache's informer for Pods as
	// unstructured objects (JSON).
	CacheUnstructuredInformer(host string) (Informer, error)
	// ClientPods is the uncached client.New's List of all Pods.
	ClientPods(host string, protobuf bool) (PodClient, error)
}

func controllerRuntime(lib Lib) (ControllerRuntime, error) {
	cr, ok := lib.(ControllerRuntime)
	if !ok {
		return nil, fmt.Errorf("%s is not built with controller-runtime: run the cr-* workloads with crbench", lib.Name())
	}
	return cr, nil
}

func crInformer(ctx context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	cr, err := controllerRuntime(lib)
	if err != nil {
		return nil, err
	}
	inf, err := cr.CacheInformer(p.Host, p.Format == "protobuf")
	if err != nil {
		return nil, err
	}
	return measureInformer(ctx, inf, p, false)
}

func crUnstructuredInformer(ctx context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	cr, err := controllerRuntime(lib)
	if err != nil {
		return nil, err
	}
	inf, err := cr.CacheUnstructuredInformer(p.Host)
	if err != nil {
		return nil, err
	}
	return measureInformer(ctx, inf, p, false)
}

func crList(ctx context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	cr, err := controllerRuntime(lib)
	if err != nil {
		return nil, err
	}
	pods, err := cr.ClientPods(p.Host, p.Format == "protobuf")
	if err != nil {
		return nil, err
	}
	return measureList(ctx, pods, p)
}
