package cachesafety

import (
	"context"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/dynamic/dynamicinformer"
	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/metadata/metadatainformer"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/tools/cache"
)

// client names the informer kinds under test.
type client int

const (
	typed client = iota
	dynamicClient
	metadataClient
)

func (c client) String() string {
	return [...]string{"typed", "dynamic", "metadata"}[c]
}

// variant is one informer under test: a client, the wire format its
// server speaks, and whether the informer has a transform.
type variant struct {
	client    client
	protobuf  bool
	transform bool
}

func (v variant) wire() wireFormat {
	return wireFormat{protobuf: v.protobuf, metadata: v.client == metadataClient}
}

func (v variant) String() string {
	s := v.client.String() + "-json"
	if v.protobuf {
		s = v.client.String() + "-protobuf"
	}
	if v.transform {
		s += "-transform"
	}
	return s
}

// allVariants are the informers of issue 25: typed over JSON and
// protobuf, dynamic (JSON, the dynamic client's only format) and metadata
// (protobuf, as kube-apiserver answers for built-in types, and JSON, as
// for custom resources), each with and without a transform.
func allVariants() []variant {
	var vs []variant
	for _, tr := range []bool{false, true} {
		vs = append(vs,
			variant{client: typed, transform: tr},
			variant{client: typed, protobuf: true, transform: tr},
			variant{client: dynamicClient, transform: tr},
			variant{client: metadataClient, protobuf: true, transform: tr},
			variant{client: metadataClient, transform: tr},
		)
	}
	return vs
}

// lister is what a controller reads: the informer's lister.
type lister interface {
	List(selector labels.Selector) ([]runtime.Object, error)
	Get(namespace, name string) (runtime.Object, error)
}

// podLister adapts the typed pod lister.
type podLister struct {
	list func(labels.Selector) ([]*corev1.Pod, error)
	get  func(ns, name string) (*corev1.Pod, error)
}

func (l podLister) List(sel labels.Selector) ([]runtime.Object, error) {
	pods, err := l.list(sel)
	out := make([]runtime.Object, len(pods))
	for i, p := range pods {
		out[i] = p
	}
	return out, err
}

func (l podLister) Get(ns, name string) (runtime.Object, error) { return l.get(ns, name) }

// genericLister adapts cache.GenericLister.
type genericLister struct{ l cache.GenericLister }

func (l genericLister) List(sel labels.Selector) ([]runtime.Object, error) { return l.l.List(sel) }
func (l genericLister) Get(ns, name string) (runtime.Object, error) {
	return l.l.ByNamespace(ns).Get(name)
}

// rig is a started informer of one variant against a fake server.
type rig struct {
	v        variant
	informer cache.SharedIndexInformer
	lister   lister
	start    func(stop <-chan struct{})
}

// Index names of the indexers every rig adds.
const (
	byApp  = "byApp"
	byNode = "byNode"
)

func indexers() cache.Indexers {
	return cache.Indexers{
		byApp: func(obj interface{}) ([]string, error) {
			m, err := meta.Accessor(obj)
			if err != nil {
				return nil, err
			}
			return []string{m.GetLabels()["app.kubernetes.io/name"]}, nil
		},
		byNode: func(obj interface{}) ([]string, error) {
			switch o := obj.(type) {
			case *corev1.Pod:
				return []string{o.Spec.NodeName}, nil
			case *unstructured.Unstructured:
				n, _, err := unstructured.NestedString(o.Object, "spec", "nodeName")
				return []string{n}, err
			}
			return nil, nil
		},
	}
}

// newRig builds the informer of v against url, with its transform and
// indexers, not started.
func newRig(t testing.TB, v variant, url string) *rig {
	cfg := &rest.Config{Host: url, QPS: 1000, Burst: 1000}
	cfg.ContentType = "application/json"
	if v.protobuf {
		cfg.ContentType = "application/vnd.kubernetes.protobuf"
	}
	r := &rig{v: v}
	switch v.client {
	case typed:
		cs, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := informers.NewSharedInformerFactory(cs, 0)
		pods := f.Core().V1().Pods()
		r.informer = pods.Informer()
		l := pods.Lister()
		r.lister = podLister{list: l.List, get: func(ns, name string) (*corev1.Pod, error) { return l.Pods(ns).Get(name) }}
		r.start = f.Start
	case dynamicClient:
		dc, err := dynamic.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := dynamicinformer.NewDynamicSharedInformerFactory(dc, 0)
		gi := f.ForResource(podsGVR)
		r.informer, r.lister, r.start = gi.Informer(), genericLister{gi.Lister()}, f.Start
	case metadataClient:
		mc, err := metadata.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f := metadatainformer.NewSharedInformerFactory(mc, 0)
		gi := f.ForResource(podsGVR)
		r.informer, r.lister, r.start = gi.Informer(), genericLister{gi.Lister()}, f.Start
	}
	if err := r.informer.AddIndexers(indexers()); err != nil {
		t.Fatal(err)
	}
	if v.transform {
		if err := r.informer.SetTransform(trimTransform); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// run starts the informer and returns a function stopping it.
func (r *rig) run() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	r.start(ctx.Done())
	return cancel
}

// trimTransform is a transform such as controllers set to trim their
// caches: it drops managed fields and deletes the last-applied
// annotation, in place, from the object it is given (a transform owns its
// input).
func trimTransform(obj interface{}) (interface{}, error) {
	switch o := obj.(type) {
	case *corev1.Pod:
		o.ManagedFields = nil
		delete(o.Annotations, lastApplied)
	case *metav1.PartialObjectMetadata:
		o.ManagedFields = nil
		delete(o.Annotations, lastApplied)
	case *unstructured.Unstructured:
		if md, ok := o.Object["metadata"].(map[string]interface{}); ok {
			delete(md, "managedFields")
			if ann, ok := md["annotations"].(map[string]interface{}); ok {
				delete(ann, lastApplied)
			}
		}
	}
	return obj, nil
}

// transformed returns what the variant's transform makes of obj (a copy).
func (v variant) transformed(obj runtime.Object) runtime.Object {
	obj = obj.DeepCopyObject()
	if v.transform {
		_, _ = trimTransform(obj)
	}
	return obj
}

// resourceVersion returns an object's resource version as a number, -1
// when it has none.
func resourceVersion(obj interface{}) int64 {
	m, err := meta.Accessor(obj)
	if err != nil {
		return -1
	}
	rv, err := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
	if err != nil {
		return -1
	}
	return rv
}

// waitClosed waits for ch, failing the test after d with what describe says.
func waitClosed(t testing.TB, ch <-chan struct{}, d time.Duration, describe func() string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(d):
		t.Fatalf("timed out after %v: %s", d, describe())
	}
}
