package informers

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/features"
	featuretesting "github.com/kubeclient/client-go/features/testing"
	"github.com/kubeclient/client-go/test/integration/framework"
)

// watchListObjects is the number of ConfigMaps the initial sync must bring.
const watchListObjects = 200

// TestInitialSyncWatchList checks how each kind of informer gets the 200
// objects that exist when it starts: with the WatchListClient feature on
// (the default) through one streaming watch (sendInitialEvents=true,
// resourceVersionMatch=NotOlderThan, allowWatchBookmarks=true) and no LIST,
// with it off through a LIST and then a plain watch. Either way the lister
// ends equal to the server's List and the handler gets one initial add per
// object.
func TestInitialSyncWatchList(t *testing.T) {
	for _, tc := range []struct {
		name      string
		watchList bool
	}{
		{name: "WatchListClient=default", watchList: true},
		{name: "WatchListClient=false", watchList: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.watchList {
				if !features.FeatureGates().Enabled(features.WatchListClient) {
					t.Fatalf("the WatchListClient feature is off by default")
				}
			} else {
				featuretesting.SetFeatureDuringTest(t, features.WatchListClient, false)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			framework.DumpLogsOnFailure(t, controlPlane)
			ns := controlPlane.Namespace(t)
			createConcurrently(t, ctx, ns, watchListObjects)
			cs := newClientset(t)
			server, _, err := serverState(ctx, cs, ns)
			if err != nil {
				t.Fatalf("listing ConfigMaps: %v", err)
			}
			if len(server) != watchListObjects {
				t.Fatalf("the server has %d ConfigMaps, want %d", len(server), watchListObjects)
			}

			for _, kind := range informerKinds {
				t.Run(kind.name, func(t *testing.T) {
					cfg := controlPlane.AdminConfig()
					log := &requestLog{}
					log.attach(cfg)
					w := startInformer(t, ctx, kind, cfg, ns)
					waitConverged(t, ctx, w, server, keys(server), false)
					for name := range server {
						if h := w.events.historyOf(name); len(h) != 1 || h[0].kind != evAdd || !h[0].initial {
							t.Errorf("%s: events %v, want one initial add", name, h)
						}
					}
					if tc.watchList {
						checkWatchListSync(t, log, ns)
					} else {
						checkListThenWatch(t, ctx, log, ns)
					}
				})
			}
		})
	}
}

// checkWatchListSync checks that the informer synced through a watch-list
// stream and never listed.
func checkWatchListSync(t *testing.T, log *requestLog, ns string) {
	t.Helper()
	requests := log.to(configMapsPath(ns))
	if len(requests) == 0 {
		t.Fatalf("no request to %s recorded", configMapsPath(ns))
	}
	first := requests[0]
	want := map[string]string{
		"watch":                "true",
		"sendInitialEvents":    "true",
		"resourceVersionMatch": "NotOlderThan",
		"allowWatchBookmarks":  "true",
	}
	for param, value := range want {
		if got := first.query.Get(param); got != value {
			t.Errorf("initial sync request %v: %s=%q, want %q", first, param, got, value)
		}
	}
	if first.method != "GET" || first.status != 200 {
		t.Errorf("initial sync request %v, want a GET answered 200", first)
	}
	for _, r := range requests {
		if !r.isWatch() {
			t.Errorf("the informer listed although it streams its initial state: %v", r)
		}
	}
}

// checkListThenWatch checks that the informer listed, then watched from
// the list's resourceVersion without asking for initial events.
func checkListThenWatch(t *testing.T, ctx context.Context, log *requestLog, ns string) {
	t.Helper()
	path := configMapsPath(ns)
	var requests []requestRecord
	// The watch follows the list; its response may arrive after the sync.
	err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		requests = log.to(path)
		return len(requests) >= 2, nil
	})
	if err != nil {
		t.Fatalf("want a LIST and a watch of %s, got %v: %v", path, requests, err)
	}
	list, watchReq := requests[0], requests[1]
	if list.isWatch() || list.method != "GET" || list.status != 200 {
		t.Errorf("first request %v, want a LIST answered 200", list)
	}
	if !watchReq.isWatch() || watchReq.status != 200 {
		t.Errorf("second request %v, want a watch answered 200", watchReq)
	}
	if watchReq.query.Get("resourceVersion") == "" {
		t.Errorf("watch %v does not start from the list's resourceVersion", watchReq)
	}
	for _, r := range requests {
		if r.query.Has("sendInitialEvents") {
			t.Errorf("request %v asks for initial events although WatchListClient is off", r)
		}
	}
	lists := 0
	for _, r := range requests {
		if !r.isWatch() {
			lists++
		}
	}
	if lists != 1 {
		t.Errorf("%d LIST requests, want 1: %v", lists, requests)
	}
}

// createConcurrently creates n ConfigMaps named obj-<i> in ns with a few
// goroutines.
func createConcurrently(t *testing.T, ctx context.Context, ns string, n int) {
	t.Helper()
	cms := newClientset(t).CoreV1().ConfigMaps(ns)
	const workers = 4
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for worker := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := worker; i < n; i += workers {
				name := fmt.Sprintf("obj-%03d", i)
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"i": fmt.Sprint(i)}}
				if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					errs <- fmt.Errorf("creating %s: %w", name, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
