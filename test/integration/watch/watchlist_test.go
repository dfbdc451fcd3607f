package watch

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	clientfeatures "github.com/kubeclient/client-go/features"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedcorev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/tools/cache"
)

// createConfigMaps creates n ConfigMaps cm-00, cm-01, ... and returns their
// resourceVersions by name.
func createConfigMaps(ctx context.Context, t *testing.T, cms typedcorev1.ConfigMapInterface, n int) map[string]int64 {
	t.Helper()
	created := map[string]int64{}
	for i := range n {
		name := fmt.Sprintf("cm-%02d", i)
		cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"v": strconv.Itoa(i)}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
		created[name] = rv(t, cm.ResourceVersion)
	}
	return created
}

// TestWatchListStreaming opens a raw watch-list stream (SendInitialEvents,
// ResourceVersionMatch=NotOlderThan, AllowWatchBookmarks) through the
// RESTClient: an ADDED event for every existing object, then a BOOKMARK
// annotated k8s.io/initial-events-end=true that is not older than any of
// them, then live events.
func TestWatchListStreaming(t *testing.T) {
	const existing = 20
	for _, contentType := range framework.ContentTypes {
		for _, from := range []string{"consistent", "last write"} {
			t.Run(contentType+"/"+from, func(t *testing.T) {
				framework.DumpLogsOnFailure(t, controlPlane)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				var wire framework.WireLog
				cs := newClientset(t, contentType, &wire)
				ns := controlPlane.Namespace(t)
				cms := cs.CoreV1().ConfigMaps(ns)
				created := createConfigMaps(ctx, t, cms, existing)
				lastWrite := int64(0)
				for _, v := range created {
					lastWrite = max(lastWrite, v)
				}

				opts := &metav1.ListOptions{
					Watch:                true,
					SendInitialEvents:    ptr.To(true),
					ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
					AllowWatchBookmarks:  true,
				}
				if from == "last write" {
					opts.ResourceVersion = strconv.FormatInt(lastWrite, 10)
				}
				w, err := cs.CoreV1().RESTClient().Get().Namespace(ns).Resource("configmaps").
					VersionedParams(opts, scheme.ParameterCodec).Watch(ctx)
				if err != nil {
					t.Fatalf("watch-list: %v", err)
				}
				defer w.Stop()

				initial := map[string]int64{}
				var endRV int64
				for endRV == 0 {
					ev, ok := next(ctx, t, w, 10*time.Second)
					if !ok {
						t.Fatalf("stream closed after %d initial events, before the initial-events-end bookmark", len(initial))
					}
					if ev.Type == watch.Bookmark {
						endRV = checkBookmark(t, ev, map[string]string{metav1.InitialEventsAnnotationKey: "true"})
						break
					}
					c := changeOf(t, ev)
					if c.typ != watch.Added {
						t.Fatalf("initial event %v, want ADDED", c)
					}
					if _, dup := initial[c.name]; dup {
						t.Errorf("%s sent twice among the initial events", c.name)
					}
					initial[c.name] = c.rv
				}
				if !maps.Equal(initial, created) {
					t.Errorf("initial events (name: rv) %v, want %v", initial, created)
				}
				if endRV < lastWrite {
					t.Errorf("initial-events-end bookmark at %d, older than the last write %d", endRV, lastWrite)
				}

				live, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "live"}}, metav1.CreateOptions{})
				if err != nil {
					t.Fatalf("create live: %v", err)
				}
				if err := cms.Delete(ctx, "cm-03", metav1.DeleteOptions{}); err != nil {
					t.Fatalf("delete cm-03: %v", err)
				}
				for i, want := range []change{
					{watch.Added, "live", "", rv(t, live.ResourceVersion)},
					{watch.Deleted, "cm-03", "3", 0},
				} {
					ev, ok := next(ctx, t, w, 10*time.Second)
					if !ok {
						t.Fatalf("stream closed before live event %d", i)
					}
					got := changeOf(t, ev)
					if got.rv <= endRV {
						t.Errorf("live event %v is not newer than the bookmark (%d)", got, endRV)
					}
					if want.rv == 0 {
						want.rv = got.rv
					}
					if got != want {
						t.Errorf("live event %d: %v, want %v", i, got, want)
					}
				}
				wire.Check(t, contentType)
			})
		}
	}
}

// TestReflectorSyncsThroughWatchList runs a tools/cache Reflector over a
// ListWatch made of the typed clientset's List and Watch. With the
// WatchListClient feature (on by default) it fills its store from a
// watch-list stream, never calling List, and then follows live changes.
func TestReflectorSyncsThroughWatchList(t *testing.T) {
	if !clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		t.Skip("the WatchListClient feature is turned off in the environment (KUBE_FEATURE_WatchListClient)")
	}
	framework.DumpLogsOnFailure(t, controlPlane)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cms := newClientset(t, framework.ContentTypeProtobuf, nil).CoreV1().ConfigMaps(controlPlane.Namespace(t))
	created := createConfigMaps(ctx, t, cms, 15)

	var mu sync.Mutex // guards lists and watches
	lists := 0
	var watches []metav1.ListOptions
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			mu.Lock()
			lists++
			mu.Unlock()
			return cms.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			mu.Lock()
			watches = append(watches, opts)
			mu.Unlock()
			return cms.Watch(ctx, opts)
		},
	}
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	reflector := cache.NewReflector(lw, &corev1.ConfigMap{}, store, 0)
	runCtx, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		reflector.RunWithContext(runCtx)
	}()
	defer func() {
		stop()
		<-stopped
	}()

	// storeState returns the store's content as name: resourceVersion.
	storeState := func() map[string]int64 {
		state := map[string]int64{}
		for _, obj := range store.List() {
			cm := obj.(*corev1.ConfigMap)
			state[cm.Name], _ = strconv.ParseInt(cm.ResourceVersion, 10, 64)
		}
		return state
	}
	waitFor := func(what string, want map[string]int64) {
		t.Helper()
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
			return maps.Equal(storeState(), want), nil
		})
		if err != nil {
			t.Fatalf("%s: store holds %v, want %v", what, storeState(), want)
		}
	}
	waitFor("initial sync", created)
	if reflector.LastSyncResourceVersion() == "" {
		t.Error("LastSyncResourceVersion empty after the initial sync")
	}
	mu.Lock()
	if lists != 0 {
		t.Errorf("the reflector listed %d times; watch-list should have replaced the list", lists)
	}
	if len(watches) == 0 {
		t.Fatal("no watch opened")
	}
	first := watches[0]
	mu.Unlock()
	if first.SendInitialEvents == nil || !*first.SendInitialEvents || !first.AllowWatchBookmarks ||
		first.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan {
		t.Errorf("first watch options %+v, want a watch-list request", first)
	}

	live, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "live"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create live: %v", err)
	}
	cm, err := cms.Get(ctx, "cm-00", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get cm-00: %v", err)
	}
	cm.Data["v"] = "changed"
	if cm, err = cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update cm-00: %v", err)
	}
	if err := cms.Delete(ctx, "cm-01", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete cm-01: %v", err)
	}
	want := maps.Clone(created)
	want["live"] = rv(t, live.ResourceVersion)
	want["cm-00"] = rv(t, cm.ResourceVersion)
	delete(want, "cm-01")
	waitFor("after live changes", want)
	if got := rv(t, reflector.LastSyncResourceVersion()); got < want["cm-00"] {
		t.Errorf("LastSyncResourceVersion %d is older than the last event seen (%d)", got, want["cm-00"])
	}

	list, err := cms.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	fromServer := map[string]int64{}
	for _, item := range list.Items {
		fromServer[item.Name] = rv(t, item.ResourceVersion)
	}
	if !maps.Equal(storeState(), fromServer) {
		t.Errorf("store %v differs from a fresh list %v", storeState(), fromServer)
	}
}
