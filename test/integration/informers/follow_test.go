package informers

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/test/integration/framework"
)

// preexisting is the number of ConfigMaps created before an informer
// starts, so that its initial sync has something to deliver.
const preexisting = 10

// createPreexisting creates n ConfigMaps named pre-<i> in ns and returns
// their states.
func createPreexisting(t *testing.T, ctx context.Context, ns string, n int) map[string]objState {
	t.Helper()
	cms := newClientset(t).CoreV1().ConfigMaps(ns)
	out := make(map[string]objState, n)
	for i := range n {
		name := fmt.Sprintf("pre-%03d", i)
		data := map[string]string{"pre": name}
		cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data}, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("creating %s: %v", name, err)
		}
		if !maps.Equal(cm.Data, data) {
			t.Fatalf("create of %s returned data %v, want %v", name, cm.Data, data)
		}
		out[name] = objState{RV: cm.ResourceVersion, Data: nonEmpty(cm.Data)}
	}
	return out
}

// TestInformersFollowConcurrentWrites syncs each kind of informer, runs a
// thousand concurrent creates, updates, deletes and re-creates, and checks
// that the informer's lister ends equal to the server's List and that its
// handler saw exactly the acknowledged writes, in order, for every object.
func TestInformersFollowConcurrentWrites(t *testing.T) {
	for _, kind := range informerKinds {
		t.Run(kind.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			framework.DumpLogsOnFailure(t, controlPlane)
			ns := controlPlane.Namespace(t)
			cs := newClientset(t)
			pre := createPreexisting(t, ctx, ns, preexisting)

			w := startInformer(t, ctx, kind, controlPlane.AdminConfig(), ns)
			// The initial sync delivered exactly the preexisting objects.
			for name, st := range pre {
				h := w.events.historyOf(name)
				if len(h) != 1 || h[0].kind != evAdd || !h[0].initial || !sameState(h[0].state, st, kind.withData) {
					t.Errorf("%s after sync: events %v, want one initial add of %v", name, h, st)
				}
			}

			started := time.Now()
			result := runWriters(t, ctx, cs, ns, writePlan{writers: 4, namesPerWriter: 16, total: 1000})
			t.Logf("writers: %v in %v", result.stats, time.Since(started).Round(time.Millisecond))
			if t.Failed() {
				return
			}
			if s := result.stats; s.creates+s.recreates+s.updates+s.deletes != 1000 || s.recreates == 0 || s.updates == 0 || s.deletes == 0 {
				t.Fatalf("the writes were not the intended mix: %v", s)
			}

			// The server holds what the writers were told.
			want := result.final()
			maps.Copy(want, pre)
			server, _, err := serverState(ctx, cs, ns)
			if err != nil {
				t.Fatalf("listing ConfigMaps: %v", err)
			}
			if diffs := stateDiffs(server, want, true); len(diffs) > 0 {
				t.Fatalf("the server's List differs from the acknowledged writes (%d): %s", len(diffs), head(diffs))
			}
			if !kind.withData {
				for name, st := range server {
					server[name] = objState{RV: st.RV}
				}
			}

			converged := time.Now()
			if waitConverged(t, ctx, w, server, append(result.everCreated(), keys(pre)...), false) {
				t.Logf("%s informer converged %v after the last write", kind.name, time.Since(converged).Round(time.Millisecond))
			}

			// Nothing was coalesced or lost: the handler saw every
			// acknowledged write of every object, in order.
			mismatches := 0
			for name, rec := range result.records {
				got := w.events.historyOf(name)
				if !sameEvents(got, rec.ops, kind.withData) {
					mismatches++
					if mismatches <= 5 {
						t.Errorf("%s: handler saw %v, the writes acknowledged %v", name, got, rec.ops)
					}
				}
			}
			if mismatches > 5 {
				t.Errorf("... %d objects in all with a different event history", mismatches)
			}
		})
	}
}

// sameEvents compares a handler's history with the acknowledged writes; a
// delete matches whatever state it carries.
func sameEvents(got, want []event, withData bool) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].kind != want[i].kind || got[i].initial {
			return false
		}
		if want[i].kind != evDelete && !sameState(got[i].state, want[i].state, withData) {
			return false
		}
	}
	return true
}

func keys(m map[string]objState) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
