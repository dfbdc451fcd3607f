package controllerruntime

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// reference decodes data as controller-runtime's own serializer does when
// apimachinery's decoders do the work: its scheme's codec factory, without
// conversion, into a new object of target's type.
func reference(t testing.TB, mediaType string, data []byte, target runtime.Object) runtime.Object {
	t.Helper()
	codecs := serializer.NewCodecFactory(scheme.Scheme)
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		t.Fatalf("no serializer for %s", mediaType)
	}
	into := reflect.New(reflect.TypeOf(target).Elem()).Interface().(runtime.Object)
	obj, _, err := codecs.WithoutConversion().DecoderToVersion(info.Serializer, corev1.SchemeGroupVersion).Decode(data, nil, into)
	if err != nil {
		t.Fatalf("reference decode: %v", err)
	}
	return obj
}

func config(url, mediaType string) *rest.Config {
	cfg := &rest.Config{Host: url}
	if mediaType == runtime.ContentTypeJSON {
		// controller-runtime asks for protobuf for built-in types unless
		// the configuration names a content type.
		cfg.ContentType = runtime.ContentTypeJSON
	}
	return cfg
}

// podMapper maps core/v1 pods, so that the clients need no discovery.
func podMapper() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper([]schema.GroupVersion{corev1.SchemeGroupVersion})
	m.Add(corev1.SchemeGroupVersion.WithKind("Pod"), meta.RESTScopeNamespace)
	return m
}

var mediaTypes = []string{runtime.ContentTypeProtobuf, runtime.ContentTypeJSON}

// TestUncachedClientDecodesAsItsSerializer: controller-runtime's client
// (client.New) lists and gets typed and unstructured pods; each object
// equals what its serializer makes of the bytes the server sent.
func TestUncachedClientDecodesAsItsSerializer(t *testing.T) {
	pods, _ := replicaSetPods(50)
	for _, mediaType := range mediaTypes {
		t.Run(mediaType, func(t *testing.T) {
			srv := newPodServer(t, pods, nil)
			c, err := client.New(config(srv.URL, mediaType), client.Options{Scheme: scheme.Scheme, Mapper: podMapper()})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			// A target holding stale data: controller-runtime zeroes it.
			list := &corev1.PodList{Items: []corev1.Pod{{}}}
			list.ResourceVersion = "stale"
			if err := c.List(ctx, list); err != nil {
				t.Fatal(err)
			}
			if len(list.Items) != len(pods) {
				t.Fatalf("listed %d pods, want %d", len(list.Items), len(pods))
			}
			for i := range list.Items {
				got := &list.Items[i]
				want := reference(t, mediaType, srv.sentBytes(mediaType, got.Name), &corev1.Pod{}).(*corev1.Pod)
				want.TypeMeta = got.TypeMeta // list items carry no kind on the wire
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("listed pod %s\n got %#v\nwant %#v", got.Name, got, want)
				}
			}
			for _, p := range pods[:5] {
				got := &corev1.Pod{}
				got.Labels = map[string]string{"stale": "x"}
				if err := c.Get(ctx, client.ObjectKeyFromObject(p), got); err != nil {
					t.Fatal(err)
				}
				want := reference(t, mediaType, srv.sentBytes(mediaType, p.Name), &corev1.Pod{}).(*corev1.Pod)
				want.TypeMeta = got.TypeMeta
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("got pod %s\n got %#v\nwant %#v", p.Name, got, want)
				}
			}
		})
	}
	t.Run("unstructured", func(t *testing.T) {
		srv := newPodServer(t, pods, nil)
		c, err := client.New(config(srv.URL, runtime.ContentTypeProtobuf), client.Options{Scheme: scheme.Scheme, Mapper: podMapper()})
		if err != nil {
			t.Fatal(err)
		}
		list := &unstructured.UnstructuredList{}
		list.SetAPIVersion("v1")
		list.SetKind("PodList")
		if err := c.List(context.Background(), list); err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != len(pods) {
			t.Fatalf("listed %d pods, want %d", len(list.Items), len(pods))
		}
		for i := range list.Items {
			got := &list.Items[i]
			obj, _, err := unstructured.UnstructuredJSONScheme.Decode(srv.sentBytes(runtime.ContentTypeJSON, got.GetName()), nil, &unstructured.Unstructured{})
			if err != nil {
				t.Fatal(err)
			}
			if want := obj.(*unstructured.Unstructured); !reflect.DeepEqual(got.Object, want.Object) {
				t.Fatalf("listed pod %s\n got %v\nwant %v", got.GetName(), got.Object, want.Object)
			}
		}
	})
}

// TestCacheDecodesAsItsSerializer: controller-runtime's cache syncs typed
// pods and receives an update of each; every cached pod equals what its
// serializer makes of the bytes last sent for it, while readers list the
// cache as events arrive (run with -race).
func TestCacheDecodesAsItsSerializer(t *testing.T) {
	pods, updates := replicaSetPods(200)
	for _, mediaType := range mediaTypes {
		t.Run(mediaType, func(t *testing.T) {
			srv := newPodServer(t, pods, updates)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c, err := cache.New(config(srv.URL, mediaType), cache.Options{Scheme: scheme.Scheme, Mapper: podMapper()})
			if err != nil {
				t.Fatal(err)
			}
			informer, err := c.GetInformer(ctx, &corev1.Pod{})
			if err != nil {
				t.Fatal(err)
			}
			// updated is closed when the cache has received every update.
			updated := make(chan struct{})
			var seen sync.Map
			remaining := int64(len(updates))
			if _, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
				UpdateFunc: func(_, obj any) {
					p := obj.(*corev1.Pod)
					if p.Labels["rollout"] != "b" {
						return
					}
					if _, dup := seen.LoadOrStore(p.Name, true); !dup && atomic.AddInt64(&remaining, -1) == 0 {
						close(updated)
					}
				},
			}); err != nil {
				t.Fatal(err)
			}
			go func() { _ = c.Start(ctx) }()
			if !c.WaitForCacheSync(ctx) {
				t.Fatal("cache did not sync")
			}
			readers := make(chan struct{})
			go func() {
				defer close(readers)
				for {
					select {
					case <-srv.watched:
						return
					default:
					}
					var list corev1.PodList
					if err := c.List(ctx, &list); err != nil {
						t.Error(err)
						return
					}
					for i := range list.Items {
						for k, v := range list.Items[i].Labels {
							_, _ = k, v
						}
					}
				}
			}()
			<-srv.watched
			<-readers
			<-updated
			for _, p := range pods {
				got := &corev1.Pod{}
				if err := c.Get(ctx, client.ObjectKeyFromObject(p), got); err != nil {
					t.Fatal(err)
				}
				want := reference(t, mediaType, srv.sentBytes(mediaType, p.Name), &corev1.Pod{}).(*corev1.Pod)
				want.TypeMeta = got.TypeMeta
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("cached pod %s\n got %#v\nwant %#v", p.Name, got, want)
				}
			}
		})
	}
}
