package informers

import (
	"context"
	"maps"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/test/integration/framework"
)

// TestInformersSurviveAPIServerRestart stops kube-apiserver in the middle
// of a thousand concurrent writes and starts it again; writers retry
// through the outage and resolve the writes whose outcome they could not
// know. Every informer must re-establish its watch and end in exactly the
// server's final state, its handler having seen each object's final
// resourceVersion (or its delete) last.
func TestInformersSurviveAPIServerRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	framework.DumpLogsOnFailure(t, controlPlane)
	ns := controlPlane.Namespace(t)
	cs := newClientset(t)
	pre := createPreexisting(t, ctx, ns, preexisting)

	watchedKinds := make([]*watched, 0, len(informerKinds))
	requests := make([]*requestLog, 0, len(informerKinds))
	for _, kind := range informerKinds {
		cfg := controlPlane.AdminConfig()
		log := &requestLog{}
		log.attach(cfg)
		watchedKinds = append(watchedKinds, startInformer(t, ctx, kind, cfg, ns))
		requests = append(requests, log)
	}

	const total, stopAt = 1000, 400
	halfway := make(chan struct{})
	var once sync.Once
	plan := writePlan{writers: 4, namesPerWriter: 16, total: total, tolerant: true,
		onProgress: func(acked int64) {
			if acked >= stopAt {
				once.Do(func() { close(halfway) })
			}
		}}
	results := make(chan writeResult, 1)
	go func() { results <- runWriters(t, ctx, cs, ns, plan) }()
	// The writers report through t: wait for them before the test ends,
	// whichever way it ends.
	var result writeResult
	writersDone := false
	defer func() {
		if !writersDone {
			cancel()
			<-results
		}
	}()

	select {
	case <-halfway:
	case <-ctx.Done():
		t.Fatalf("the writers did not reach %d writes: %v", stopAt, ctx.Err())
	}
	stopping := time.Now()
	controlPlane.StopAPIServer()
	stopped := time.Now()
	t.Logf("kube-apiserver stopped in %v", stopped.Sub(stopping).Round(time.Millisecond))
	if err := controlPlane.StartAPIServer(ctx); err != nil {
		t.Fatalf("restarting kube-apiserver: %v", err)
	}
	t.Logf("kube-apiserver ready again after %v", time.Since(stopped).Round(time.Millisecond))

	// A write made after the restart reaches every informer: their
	// watches were re-established.
	var marker *corev1.ConfigMap
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		var err error
		marker, err = cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "after-restart"},
			Data:       map[string]string{"written": "after the restart"},
		}, metav1.CreateOptions{})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("creating a ConfigMap after the restart: %v", err)
	}
	for _, w := range watchedKinds {
		var seen objState
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, convergeTimeout, true, func(context.Context) (bool, error) {
			got, err := storeState(w)
			if err != nil {
				return false, nil
			}
			seen = got[marker.Name]
			return seen.RV == marker.ResourceVersion, nil
		})
		if err != nil {
			t.Errorf("%s informer has %s at %v, want rv=%s written after the restart: %v", w.kind.name, marker.Name, seen, marker.ResourceVersion, err)
		}
	}

	result = <-results
	writersDone = true
	t.Logf("writers: %v", result.stats)
	if t.Failed() {
		return
	}
	if result.stats.failures == 0 {
		t.Errorf("no write failed: the restart did not interrupt the writers, the test proved nothing")
	}

	want := result.final()
	want[marker.Name] = objState{RV: marker.ResourceVersion, Data: nonEmpty(marker.Data)}
	maps.Copy(want, pre)
	server, _, err := serverState(ctx, cs, ns)
	if err != nil {
		t.Fatalf("listing ConfigMaps: %v", err)
	}
	if diffs := stateDiffs(server, want, true); len(diffs) > 0 {
		t.Fatalf("the server's List differs from the acknowledged writes (%d): %s", len(diffs), head(diffs))
	}
	everCreated := append(result.everCreated(), keys(pre)...)
	everCreated = append(everCreated, marker.Name)

	for i, w := range watchedKinds {
		t.Run(w.kind.name, func(t *testing.T) {
			waitConverged(t, ctx, w, server, everCreated, true)

			// The handler never saw a state the server did not return.
			for name, rec := range result.records {
				for _, ev := range w.events.historyOf(name) {
					if ev.kind != evDelete && !rec.known[ev.state.RV] {
						t.Errorf("%s: handler saw %s %v, a resourceVersion no write or read returned", name, ev.kind, ev.state)
					}
				}
			}

			// A watch answered by the restarted server.
			rewatched := false
			for _, r := range requests[i].to(configMapsPath(ns)) {
				if r.isWatch() && r.status == 200 && r.done.After(stopped) {
					rewatched = true
					t.Logf("watch after the restart: %v", r)
					break
				}
			}
			if !rewatched {
				t.Errorf("no watch of %s succeeded after the restart; requests: %v", configMapsPath(ns), requests[i].to(configMapsPath(ns)))
			}
		})
	}
}
