package cache_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/rest"
	restwatch "github.com/kubeclient/client-go/rest/watch"
	"github.com/kubeclient/client-go/tools/cache"
)

// protobufPodServer serves pods in protobuf as a kube-apiserver does: a
// LIST, in pages of at most pageSize items when it is not zero, then a
// WATCH stream that sends what events receives.
type protobufPodServer struct {
	pods     []corev1.Pod
	pageSize int
	events   chan watch.Event
}

func (s *protobufPodServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	info, ok := kruntime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), kruntime.ContentTypeProtobuf)
	if !ok {
		http.Error(w, "no protobuf serializer", http.StatusInternalServerError)
		return
	}
	q := r.URL.Query()
	if q.Get("watch") == "true" {
		w.Header().Set("Content-Type", info.MediaType+";stream=watch")
		frames := info.StreamSerializer.Framer.NewFrameWriter(w)
		enc := restwatch.NewEncoder(streaming.NewEncoder(frames, info.StreamSerializer.Serializer), info.Serializer)
		w.(http.Flusher).Flush()
		for {
			select {
			case ev := <-s.events:
				if err := enc.Encode(&ev); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}
	from, _ := strconv.Atoi(q.Get("continue"))
	to := len(s.pods)
	if s.pageSize > 0 && from+s.pageSize < to {
		to = from + s.pageSize
	}
	list := &corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}, Items: s.pods[from:to]}
	list.ResourceVersion = "10"
	if to < len(s.pods) {
		list.Continue = strconv.Itoa(to)
	}
	w.Header().Set("Content-Type", info.MediaType)
	if err := info.Serializer.Encode(list, w); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// noWatchList is a client without watch-list support.
type noWatchList struct{}

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

// itemsPod is pod i of TestInformerKeepsDecodedListItems: a spec long
// enough to be reused whole (wire.Reused), whose one container is too
// short to be reused alone (wire.ReusedRun): a new version of the pod
// shares its containers with the cached one only through its whole spec.
func itemsPod(i int, rv string) corev1.Pod {
	selector := map[string]string{}
	for k := range 8 {
		selector[fmt.Sprintf("example.com/selector-key-%d", k)] = strings.Repeat("v", 16)
	}
	return corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", i), Namespace: "ns", ResourceVersion: rv},
		Spec: corev1.PodSpec{
			NodeName:     fmt.Sprintf("node-%d", i),
			NodeSelector: selector,
			Containers:   []corev1.Container{{Name: "app", Image: "registry.example/app:1"}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: fmt.Sprintf("10.0.0.%d", i)},
	}
}

// TestInformerKeepsDecodedListItems runs a pod informer over protobuf and
// sends each listed pod again, its spec unchanged, in a MODIFIED event.
// The cache holds the allocations the decoder gave the listed items (see
// package listitems), so the decoder still knows their specs when the
// events come, after a garbage collection: each new version shares the
// cached one's containers (unless the fast paths are switched off). A ListerWatcher that changes an item it
// returns gets that item copied into the cache, changed, as
// meta.ExtractListWithAlloc would.
func TestInformerKeepsDecodedListItems(t *testing.T) {
	const n = 6
	// With the generated decoders or cache sharing switched off, nothing
	// is shared, as in client-go.
	sharing := fastpath.GeneratedDecoders.On() && fastpath.CacheDedup.On()
	tests := []struct {
		name     string
		pageSize int
		// change, when set, writes into the list the ListerWatcher
		// returns: the label it sets on item 0 must be cached.
		change bool
	}{
		{name: "one page"},
		{name: "pages of two", pageSize: 2},
		{name: "lister changes an item", change: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &protobufPodServer{pageSize: tt.pageSize, events: make(chan watch.Event)}
			for i := range n {
				srv.pods = append(srv.pods, itemsPod(i, "5"))
			}
			server := httptest.NewServer(srv)
			defer server.Close()
			client, err := kubernetes.NewForConfig(&rest.Config{Host: server.URL, ContentConfig: rest.ContentConfig{ContentType: kruntime.ContentTypeProtobuf}})
			if err != nil {
				t.Fatal(err)
			}
			lw := cache.NewListWatchFromClient(client.CoreV1().RESTClient(), "pods", "", fields.Everything())
			if tt.change {
				list := lw.ListWithContextFunc
				lw.ListWithContextFunc = func(ctx context.Context, opts metav1.ListOptions) (kruntime.Object, error) {
					obj, err := list(ctx, opts)
					if err == nil {
						obj.(*corev1.PodList).Items[0].Labels = map[string]string{"changed": "by-lister"}
					}
					return obj, err
				}
			}
			// The informer lists, then watches (no watch list).
			inf := cache.NewSharedIndexInformer(cache.ToListWatcherWithWatchListSemantics(lw, noWatchList{}), &corev1.Pod{}, 0, cache.Indexers{})
			var mu sync.Mutex
			updated := map[string]bool{}
			allUpdated := make(chan struct{})
			if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{UpdateFunc: func(_, obj interface{}) {
				mu.Lock()
				defer mu.Unlock()
				updated[obj.(*corev1.Pod).Name] = true
				if len(updated) == n {
					close(allUpdated)
				}
			}}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			go inf.RunWithContext(ctx)
			if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
				t.Fatal("informer did not sync")
			}
			listed := make([]*corev1.Pod, n)
			for i := range listed {
				obj, _, _ := inf.GetStore().GetByKey(fmt.Sprintf("ns/pod-%d", i))
				listed[i] = obj.(*corev1.Pod)
			}
			if tt.change && listed[0].Labels["changed"] != "by-lister" {
				t.Fatalf("cached pod 0 has labels %v, want the lister's change", listed[0].Labels)
			}
			// Only the cache holds the listed pods now: what it does not
			// hold is gone after a collection.
			runtime.GC()
			runtime.GC()
			for i := range n {
				p := itemsPod(i, "6")
				p.Status.PodIP = "10.1.0.1"
				select {
				case srv.events <- watch.Event{Type: watch.Modified, Object: &p}:
				case <-ctx.Done():
					t.Fatal("the informer did not watch")
				}
			}
			select {
			case <-allUpdated:
			case <-ctx.Done():
				t.Fatal("the informer did not receive every event")
			}
			for i := range n {
				obj, _, _ := inf.GetStore().GetByKey(fmt.Sprintf("ns/pod-%d", i))
				now := obj.(*corev1.Pod)
				if now.ResourceVersion != "6" || !reflect.DeepEqual(now.Spec, listed[i].Spec) {
					t.Fatalf("pod %d: cached %s %+v, want version 6 of the listed spec", i, now.ResourceVersion, now.Spec)
				}
				shared := &now.Spec.Containers[0] == &listed[i].Spec.Containers[0]
				if want := sharing && !(tt.change && i == 0); shared != want {
					t.Errorf("pod %d: new version shares the listed containers: %v, want %v", i, shared, want)
				}
			}
		})
	}
}
