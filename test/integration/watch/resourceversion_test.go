package watch

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/util/retry"
)

// TestResourceVersionSemantics writes one ConfigMap twice (v=1 at rv1, v=2
// at rv2) and reads it back at each kind of resourceVersion:
// "" is a consistent read that sees the last write; "0" may be served from
// the watch cache at any version; Exact returns the state at that revision
// (also for an older one); NotOlderThan returns a state at least as new;
// NotOlderThan a revision from the future times out with
// ResourceVersionTooLarge.
func TestResourceVersionSemantics(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) {
			framework.DumpLogsOnFailure(t, controlPlane)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var wire framework.WireLog
			cs := newClientset(t, contentType, &wire)
			ns := controlPlane.Namespace(t)
			cms := cs.CoreV1().ConfigMaps(ns)
			v1, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "doc"}, Data: map[string]string{"v": "1"}}, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			v2 := v1.DeepCopy()
			v2.Data["v"] = "2"
			if v2, err = cms.Update(ctx, v2, metav1.UpdateOptions{}); err != nil {
				t.Fatalf("Update: %v", err)
			}
			rv1, rv2 := rv(t, v1.ResourceVersion), rv(t, v2.ResourceVersion)
			if rv2 <= rv1 {
				t.Fatalf("update at %d does not follow create at %d", rv2, rv1)
			}
			// states maps every version of the object to its value.
			states := map[int64]string{rv1: "1", rv2: "2"}

			// Get.
			got, err := cms.Get(ctx, "doc", metav1.GetOptions{ResourceVersion: ""})
			if err != nil || got.ResourceVersion != v2.ResourceVersion || got.Data["v"] != "2" {
				t.Errorf("Get rv=\"\": %v, rv %s v=%q, want the last write (rv %d, v=2)", err, got.ResourceVersion, got.Data["v"], rv2)
			}
			got, err = cms.Get(ctx, "doc", metav1.GetOptions{ResourceVersion: "0"})
			if err != nil {
				t.Errorf("Get rv=0: %v", err)
			} else if v, known := states[rv(t, got.ResourceVersion)]; !known || got.Data["v"] != v {
				t.Errorf("Get rv=0: rv %s v=%q, not a version that was written", got.ResourceVersion, got.Data["v"])
			}
			got, err = cms.Get(ctx, "doc", metav1.GetOptions{ResourceVersion: v1.ResourceVersion})
			if err != nil {
				t.Errorf("Get rv=%d (not older than): %v", rv1, err)
			} else if r := rv(t, got.ResourceVersion); r < rv1 || states[r] != got.Data["v"] {
				t.Errorf("Get rv=%d (not older than): rv %d v=%q", rv1, r, got.Data["v"])
			}

			// List.
			tests := []struct {
				name  string
				opts  metav1.ListOptions
				check func(listRV, itemRV int64, value string) bool
			}{
				{"consistent", metav1.ListOptions{}, func(listRV, itemRV int64, value string) bool {
					return listRV >= rv2 && itemRV == rv2 && value == "2"
				}},
				{"any (rv=0)", metav1.ListOptions{ResourceVersion: "0"}, func(listRV, itemRV int64, value string) bool {
					return listRV >= itemRV && states[itemRV] == value
				}},
				{"exact, older", metav1.ListOptions{ResourceVersion: v1.ResourceVersion, ResourceVersionMatch: metav1.ResourceVersionMatchExact},
					func(listRV, itemRV int64, value string) bool { return listRV == rv1 && itemRV == rv1 && value == "1" }},
				{"exact, newest", metav1.ListOptions{ResourceVersion: v2.ResourceVersion, ResourceVersionMatch: metav1.ResourceVersionMatchExact},
					func(listRV, itemRV int64, value string) bool { return listRV == rv2 && itemRV == rv2 && value == "2" }},
				{"exact with limit (legacy)", metav1.ListOptions{ResourceVersion: v1.ResourceVersion, Limit: 10},
					func(listRV, itemRV int64, value string) bool { return listRV == rv1 && itemRV == rv1 && value == "1" }},
				{"not older than", metav1.ListOptions{ResourceVersion: v1.ResourceVersion, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan},
					func(listRV, itemRV int64, value string) bool {
						return listRV >= rv1 && listRV >= itemRV && states[itemRV] == value
					}},
			}
			for _, tt := range tests {
				list, err := cms.List(ctx, tt.opts)
				if err != nil {
					t.Errorf("List %s: %v", tt.name, err)
					continue
				}
				if len(list.Items) != 1 || list.Items[0].Name != "doc" {
					t.Errorf("List %s: %d items, want doc", tt.name, len(list.Items))
					continue
				}
				item := list.Items[0]
				if !tt.check(rv(t, list.ResourceVersion), rv(t, item.ResourceVersion), item.Data["v"]) {
					t.Errorf("List %s: list rv %s, item rv %s v=%q (rv1 %d, rv2 %d)", tt.name, list.ResourceVersion, item.ResourceVersion, item.Data["v"], rv1, rv2)
				}
			}

			// A revision far in the future: the server waits (about three
			// seconds) for its cache to reach it and gives up with a 504
			// and Retry-After, which the rest client would retry ten times
			// (as client-go does); one attempt is enough here.
			future := strconv.FormatInt(rv2+1_000_000, 10)
			started := time.Now()
			err = cs.CoreV1().RESTClient().Get().Namespace(ns).Resource("configmaps").
				VersionedParams(&metav1.ListOptions{ResourceVersion: future, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}, scheme.ParameterCodec).
				MaxRetries(0).Do(ctx).Error()
			if !apierrors.IsTimeout(err) || !apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge) {
				t.Errorf("List not older than %s: %v, want a Timeout with cause %s", future, err, metav1.CauseTypeResourceVersionTooLarge)
			}
			if seconds, ok := apierrors.SuggestsClientDelay(err); !ok || seconds <= 0 {
				t.Errorf("List not older than %s: no Retry-After in %v", future, err)
			}
			if elapsed := time.Since(started); elapsed > 20*time.Second {
				t.Errorf("List not older than %s took %v with MaxRetries(0)", future, elapsed)
			}
			wire.Check(t, contentType)
		})
	}
}

// TestConflictAndRetryOnConflict updates a ConfigMap from a stale copy and
// gets a Conflict; retry.RetryOnConflict turns the same stale start into a
// success on its second attempt, gives up with the Conflict when every
// attempt is stale, and lets concurrent incrementers lose no increment.
func TestConflictAndRetryOnConflict(t *testing.T) {
	framework.DumpLogsOnFailure(t, controlPlane)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cms := newClientset(t, framework.ContentTypeProtobuf, nil).CoreV1().ConfigMaps(controlPlane.Namespace(t))
	stale, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "counter"}, Data: map[string]string{"n": "0"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	fresh := stale.DeepCopy()
	fresh.Data["n"] = "1"
	if _, err := cms.Update(ctx, fresh, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("Update: %v", err)
	}

	// A plain stale update.
	_, err = cms.Update(ctx, stale, metav1.UpdateOptions{})
	if !apierrors.IsConflict(err) {
		t.Fatalf("Update from resourceVersion %s: %v, want a Conflict", stale.ResourceVersion, err)
	}
	if apierrors.ReasonForError(err) != metav1.StatusReasonConflict || apierrors.IsNotFound(err) {
		t.Errorf("stale Update: reason %q", apierrors.ReasonForError(err))
	}

	increment := func(cm *corev1.ConfigMap) error {
		n, err := strconv.Atoi(cm.Data["n"])
		if err != nil {
			return err
		}
		cm = cm.DeepCopy()
		cm.Data["n"] = strconv.Itoa(n + 1)
		_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
		return err
	}
	value := func() string {
		t.Helper()
		cm, err := cms.Get(ctx, "counter", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		return cm.Data["n"]
	}

	// The first attempt starts from the stale copy, the second re-reads.
	attempts := 0
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		attempts++
		if attempts == 1 {
			return increment(stale)
		}
		cm, err := cms.Get(ctx, "counter", metav1.GetOptions{})
		if err != nil {
			return err
		}
		return increment(cm)
	})
	if err != nil || attempts != 2 {
		t.Errorf("RetryOnConflict: %v after %d attempts, want success on the second", err, attempts)
	}
	if got := value(); got != "2" {
		t.Errorf("counter %s after the retried increment, want 2", got)
	}

	// Always stale: every attempt conflicts and the Conflict comes back.
	attempts = 0
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		attempts++
		return increment(stale)
	})
	if !apierrors.IsConflict(err) || attempts != retry.DefaultRetry.Steps {
		t.Errorf("RetryOnConflict with stale data: %v after %d attempts, want a Conflict after %d", err, attempts, retry.DefaultRetry.Steps)
	}

	// Concurrent incrementers: conflicts happen, no increment is lost.
	const workers, each = 4, 5
	backoff := wait.Backoff{Steps: 100, Duration: 5 * time.Millisecond, Factor: 1.2, Jitter: 1, Cap: 200 * time.Millisecond}
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			for range each {
				if err := retry.RetryOnConflict(backoff, func() error {
					cm, err := cms.Get(ctx, "counter", metav1.GetOptions{})
					if err != nil {
						return err
					}
					return increment(cm)
				}); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Errorf("incrementer %d: %v", w, err)
		}
	}
	if got, want := value(), strconv.Itoa(2+workers*each); got != want {
		t.Errorf("counter %s after %d concurrent increments, want %s", got, workers*each, want)
	}
}
