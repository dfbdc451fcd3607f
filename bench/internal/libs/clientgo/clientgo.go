// Package clientgo adapts k8s.io/client-go v0.37.2 to harness.Lib.
//
// Package kubeclient is the same file with the import paths of
// github.com/kubeclient/client-go (gen.sh writes it), so both libraries are
// driven by identical code.
package clientgo

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/bench/internal/harness"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Lib is k8s.io/client-go.
type Lib struct{}

var _ harness.Lib = Lib{}

// Name implements harness.Lib.
func (Lib) Name() string { return "client-go" }

func config(host string, protobuf bool) *rest.Config {
	c := &rest.Config{Host: host, QPS: -1, Burst: 1 << 20}
	if protobuf {
		c.ContentType = "application/vnd.kubernetes.protobuf"
		c.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	}
	return c
}

func informer(inf cache.SharedIndexInformer) harness.Informer {
	return harness.Informer{
		Run:       inf.RunWithContext,
		HasSynced: inf.HasSynced,
		Len:       func() int { return len(inf.GetStore().ListKeys()) },
		List:      inf.GetStore().List,
		AddHandler: func(h *harness.Counter) error {
			_, err := inf.AddEventHandler(h)
			return err
		},
	}
}

var indexers = cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}

// TypedInformer implements harness.Lib.
func (Lib) TypedInformer(host, resource string, protobuf bool) (harness.Informer, error) {
	cs, err := kubernetes.NewForConfig(config(host, protobuf))
	if err != nil {
		return harness.Informer{}, err
	}
	f := informers.NewSharedInformerFactory(cs, 0)
	switch resource {
	case "pods":
		return informer(f.Core().V1().Pods().Informer()), nil
	case "configmaps":
		return informer(f.Core().V1().ConfigMaps().Informer()), nil
	}
	return harness.Informer{}, fmt.Errorf("no typed informer for %q", resource)
}

// DynamicInformer implements harness.Lib.
func (Lib) DynamicInformer(host string, gvr schema.GroupVersionResource) (harness.Informer, error) {
	dc, err := dynamic.NewForConfig(config(host, false))
	if err != nil {
		return harness.Informer{}, err
	}
	return informer(dynamicinformer.NewFilteredDynamicInformer(dc, gvr, metav1.NamespaceAll, 0, indexers, nil).Informer()), nil
}

// MetadataInformer implements harness.Lib.
func (Lib) MetadataInformer(host string, gvr schema.GroupVersionResource) (harness.Informer, error) {
	mc, err := metadata.NewForConfig(config(host, false))
	if err != nil {
		return harness.Informer{}, err
	}
	return informer(metadatainformer.NewFilteredMetadataInformer(mc, gvr, metav1.NamespaceAll, 0, indexers, nil).Informer()), nil
}

// Pods implements harness.Lib.
func (Lib) Pods(host string, protobuf bool) (harness.PodClient, error) {
	cs, err := kubernetes.NewForConfig(config(host, protobuf))
	if err != nil {
		return harness.PodClient{}, err
	}
	return harness.PodClient{
		Get: func(ctx context.Context, ns, name string) error {
			_, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
			return err
		},
		List: func(ctx context.Context) (int, error) {
			l, err := cs.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
			if err != nil {
				return 0, err
			}
			return len(l.Items), nil
		},
	}, nil
}

// NewQueue implements harness.Lib.
func (Lib) NewQueue() harness.Queue { return workqueue.NewTyped[string]() }
