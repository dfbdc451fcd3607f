package watch

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	typedcorev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	"github.com/kubeclient/client-go/test/integration/framework"
)

// Sizes of TestWatchResumeSeesEveryAcknowledgedWrite: writers × objects ×
// steps writes (300), each object created, updated and, for half of them,
// deleted at the last step.
const (
	resumeWriters = 5
	resumeObjects = 4
	resumeSteps   = 15
)

// writeObjects performs writer w's share of the writes, sequentially, and
// returns them as acknowledged by the server in the order they were made.
// Every object belongs to one writer, so no write conflicts. Step s starts
// once gates[s] is closed.
func writeObjects(ctx context.Context, cms typedcorev1.ConfigMapInterface, w int, gates []chan struct{}) ([]change, error) {
	var acked []change
	current := make([]*corev1.ConfigMap, resumeObjects)
	for step := range resumeSteps {
		select {
		case <-gates[step]:
		case <-ctx.Done():
			return acked, fmt.Errorf("writer %d waiting for step %d: %w", w, step, ctx.Err())
		}
		for j := range resumeObjects {
			name := fmt.Sprintf("w%d-o%d", w, j)
			value := strconv.Itoa(step)
			var err error
			switch {
			case step == 0:
				current[j], err = cms.Create(ctx, &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Name: name},
					Data:       map[string]string{"v": value},
				}, metav1.CreateOptions{})
				if err == nil {
					acked = append(acked, change{watch.Added, name, value, 0})
				}
			case step == resumeSteps-1 && j%2 == 0:
				err = cms.Delete(ctx, name, metav1.DeleteOptions{})
				if err == nil {
					// The DELETED event carries the last state; the
					// revision of the delete itself is not returned.
					acked = append(acked, change{watch.Deleted, name, current[j].Data["v"], 0})
					continue
				}
			default:
				next := current[j].DeepCopy()
				next.Data["v"] = value
				current[j], err = cms.Update(ctx, next, metav1.UpdateOptions{})
				if err == nil {
					acked = append(acked, change{watch.Modified, name, value, 0})
				}
			}
			if err != nil {
				return acked, fmt.Errorf("writer %d, step %d, %s: %w", w, step, name, err)
			}
			acked[len(acked)-1].rv, err = strconv.ParseInt(current[j].ResourceVersion, 10, 64)
			if err != nil {
				return acked, fmt.Errorf("writer %d: resourceVersion %q: %w", w, current[j].ResourceVersion, err)
			}
		}
	}
	return acked, nil
}

// TestWatchResumeSeesEveryAcknowledgedWrite runs concurrent writers against
// one namespace while a watcher, starting at a list's resourceVersion, keeps
// stopping its watch after a few events or letting the server end it
// (timeoutSeconds=1), and resumes from the last resourceVersion it saw.
// Step s of the writers starts when the watcher opens its session s, so
// writes and watch sessions overlap for at least resumeSteps sessions. The
// concatenated events must be exactly the acknowledged writes: each writer's
// writes in its order with the acknowledged resourceVersions, all
// resourceVersions strictly increasing, nothing repeated, nothing missing,
// nothing else (a sentinel written last closes the sequence).
func TestWatchResumeSeesEveryAcknowledgedWrite(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) {
			framework.DumpLogsOnFailure(t, controlPlane)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			var wire framework.WireLog
			cms := newClientset(t, contentType, &wire).CoreV1().ConfigMaps(controlPlane.Namespace(t))

			start, err := cms.List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			if len(start.Items) != 0 {
				t.Fatalf("new namespace holds %d ConfigMaps", len(start.Items))
			}

			// Writers, then the sentinel once they are all done.
			gates := make([]chan struct{}, resumeSteps)
			for i := range gates {
				gates[i] = make(chan struct{})
			}
			acked := make([][]change, resumeWriters)
			writeErrs := make([]error, resumeWriters)
			var sentinel *corev1.ConfigMap
			var sentinelErr error
			writesDone := make(chan struct{})
			var wg sync.WaitGroup
			for w := range resumeWriters {
				wg.Go(func() { acked[w], writeErrs[w] = writeObjects(ctx, cms, w, gates) })
			}
			go func() {
				defer close(writesDone)
				wg.Wait()
				sentinel, sentinelErr = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "sentinel"}}, metav1.CreateOptions{})
				if sentinelErr != nil {
					cancel() // the watcher would wait for it in vain
				}
			}()
			writersFailed := func() {
				t.Helper()
				<-writesDone
				if err := errors.Join(append(writeErrs, sentinelErr)...); err != nil {
					t.Fatalf("writes failed: %v", err)
				}
			}

			// The watcher. Sessions 4k+3 let the server end the watch after
			// one second and read to the end; the others stop after 1-20
			// events (at least 20 unseen writes are allowed whenever a
			// session is open, so none waits for writes that wait for it).
			rng := rand.New(rand.NewPCG(7, uint64(len(contentType))))
			var seen []change
			lastRV := start.ResourceVersion
			serverCuts, clientStops := 0, 0
			sawSentinel := false
			for session := 0; !sawSentinel; session++ {
				cutByServer := session%4 == 3
				opts := metav1.ListOptions{ResourceVersion: lastRV}
				limit := 1 + rng.IntN(20)
				if cutByServer {
					opts.TimeoutSeconds = ptr.To[int64](1)
				}
				opened := time.Now()
				w, err := cms.Watch(ctx, opts)
				if err != nil {
					writersFailed()
					t.Fatalf("session %d: Watch from %s: %v", session, lastRV, err)
				}
				if session < resumeSteps {
					close(gates[session])
				}
				got := 0
				for cutByServer || got < limit {
					var ev watch.Event
					var ok bool
					select {
					case ev, ok = <-w.ResultChan():
					case <-ctx.Done():
						w.Stop()
						writersFailed()
						t.Fatalf("session %d: waiting for events after %d (last %s): %v", session, len(seen), lastRV, ctx.Err())
					}
					if !ok {
						break
					}
					if ev.Type != watch.Added && ev.Type != watch.Modified && ev.Type != watch.Deleted {
						w.Stop()
						t.Fatalf("session %d: unexpected %s event: %#v", session, ev.Type, ev.Object)
					}
					c := changeOf(t, ev)
					seen = append(seen, c)
					lastRV = strconv.FormatInt(c.rv, 10)
					got++
					if c.name == "sentinel" {
						sawSentinel = true
						if !cutByServer {
							break
						}
					}
				}
				if cutByServer {
					// The loop ended because the result channel closed.
					if elapsed := time.Since(opened); elapsed < 900*time.Millisecond {
						t.Errorf("session %d: watch with timeoutSeconds=1 ended after %v", session, elapsed)
					}
					serverCuts++
					continue
				}
				w.Stop()
				waitClosed(t, w, 10*time.Second) // events after Stop are not counted: the next session replays them
				clientStops++
			}
			writersFailed()
			t.Logf("%d events in %d sessions (%d ended by the server, %d stopped by the client)",
				len(seen), serverCuts+clientStops, serverCuts, clientStops)
			if serverCuts < 3 || clientStops < 12 {
				t.Errorf("%d server-ended and %d client-stopped sessions, want at least 3 and 12", serverCuts, clientStops)
			}

			// Strictly increasing resourceVersions: nothing twice, in order.
			for i := 1; i < len(seen); i++ {
				if seen[i].rv <= seen[i-1].rv {
					t.Errorf("event %d (%v) does not follow event %d (%v)", i, seen[i], i-1, seen[i-1])
				}
			}
			// The sentinel closes the sequence.
			if last := seen[len(seen)-1]; last != (change{watch.Added, "sentinel", "", rv(t, sentinel.ResourceVersion)}) {
				t.Errorf("last event %v, want the sentinel's ADDED at %s", last, sentinel.ResourceVersion)
			}
			// Each writer's projection is exactly its acknowledged writes.
			byWriter := make([][]change, resumeWriters)
			total := 0
			for _, c := range seen[:len(seen)-1] {
				w := -1
				if owner, _, ok := strings.Cut(strings.TrimPrefix(c.name, "w"), "-"); ok {
					w, _ = strconv.Atoi(owner)
				}
				if w < 0 || w >= resumeWriters {
					t.Errorf("event for an object nobody wrote: %v", c)
					continue
				}
				byWriter[w] = append(byWriter[w], c)
			}
			for w := range resumeWriters {
				total += len(acked[w])
				got, want := byWriter[w], acked[w]
				for i := range max(len(got), len(want)) {
					switch {
					case i >= len(got):
						t.Errorf("writer %d: missed %d writes from %v", w, len(want)-i, want[i])
					case i >= len(want):
						t.Errorf("writer %d: %d events beyond its writes from %v", w, len(got)-i, got[i])
					case got[i].typ != want[i].typ || got[i].name != want[i].name || got[i].value != want[i].value ||
						(want[i].rv != 0 && got[i].rv != want[i].rv):
						t.Errorf("writer %d: event %d is %v, want %v", w, i, got[i], want[i])
					default:
						continue
					}
					break
				}
			}
			if total != resumeWriters*resumeObjects*resumeSteps || len(seen) != total+1 {
				t.Errorf("%d writes acknowledged and %d events seen, want %d and %d",
					total, len(seen), resumeWriters*resumeObjects*resumeSteps, total+1)
			}
			wire.Check(t, contentType)
		})
	}
}
