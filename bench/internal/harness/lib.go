package harness

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Lib is one client library under test. Each method builds what a
// controller would build with that library's public API, against the
// fake server at host.
type Lib interface {
	Name() string
	// TypedInformer is the SharedInformerFactory's informer for the core/v1
	// resource ("pods" or "configmaps").
	TypedInformer(host, resource string, protobuf bool) (Informer, error)
	// DynamicInformer is an unstructured informer from dynamicinformer.
	DynamicInformer(host string, gvr schema.GroupVersionResource) (Informer, error)
	// MetadataInformer is a PartialObjectMetadata informer from
	// metadatainformer.
	MetadataInformer(host string, gvr schema.GroupVersionResource) (Informer, error)
	// CronTabInformer is the generated informer of examples/crd's CronTab
	// custom resource (JSON).
	CronTabInformer(host string) (Informer, error)
	// Pods is the typed clientset's Pods client.
	Pods(host string, protobuf bool) (PodClient, error)
	// NewQueue is workqueue.NewTyped[string].
	NewQueue() Queue
	// NewNamedQueue is the queue controller-runtime builds for a
	// controller: NewTypedRateLimitingQueueWithConfig with the default
	// controller rate limiter, name and a Prometheus metrics provider. It
	// also has Forget.
	NewNamedQueue(name string) Queue
}

// Informer is the part of a SharedIndexInformer the workloads drive.
type Informer struct {
	Run       func(ctx context.Context)
	HasSynced func() bool
	Len       func() int
	// List returns the cached objects, as a lister reads them.
	List       func() []any
	AddHandler func(h *Counter) error
}

// PodClient gets one Pod or lists all.
type PodClient struct {
	Get  func(ctx context.Context, namespace, name string) error
	List func(ctx context.Context) (items int, err error)
}

// Queue is a workqueue.TypedInterface[string].
type Queue interface {
	Add(item string)
	Get() (item string, shutdown bool)
	Done(item string)
	ShutDown()
	Len() int
}
