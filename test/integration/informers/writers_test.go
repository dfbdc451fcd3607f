package informers

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes"
	typedcorev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
)

// writePlan describes a run of concurrent writers. Writer i owns the names
// w<i>-00 ... so that writers never race each other on one object, while
// the informer sees their events interleaved.
type writePlan struct {
	writers        int
	namesPerWriter int
	// total is the number of writes the server must acknowledge, spread
	// evenly over the writers.
	total int
	// tolerant makes writers survive failed writes: a write whose outcome
	// is unknown is resolved by reading the object back (retrying until
	// the server answers), and the same object is written again next.
	// Otherwise a failed write fails the test.
	tolerant bool
	// seed fixes the writers' choices; zero takes one from the clock.
	seed uint64
	// quiet leaves out the log line of each failed write (a soak has
	// thousands).
	quiet bool
	// onProgress, when set, is called with the number of acknowledged
	// writes so far after each one.
	onProgress func(acked int64)
}

// nameRecord is what the writers know the server did to one name.
type nameRecord struct {
	exists bool
	state  objState
	// created tells whether the object existed at some point.
	created bool
	// ops lists the acknowledged writes in order: adds (creates), updates
	// and deletes (with an empty state), as the handler should see them.
	ops []event
	// known holds every resourceVersion the server returned for the name,
	// from writes or from reads that resolved a failed write.
	known map[string]bool
}

// writeStats counts what the writers did.
type writeStats struct {
	creates, recreates, updates, deletes int
	// failures counts writes that returned an error.
	failures int
	// appliedAnyway counts failed writes that the read-back showed the
	// server had applied.
	appliedAnyway int
}

func (s *writeStats) add(o writeStats) {
	s.creates += o.creates
	s.recreates += o.recreates
	s.updates += o.updates
	s.deletes += o.deletes
	s.failures += o.failures
	s.appliedAnyway += o.appliedAnyway
}

func (s writeStats) String() string {
	return fmt.Sprintf("%d creates, %d re-creates, %d updates, %d deletes acknowledged; %d failed writes (%d of them applied anyway)",
		s.creates, s.recreates, s.updates, s.deletes, s.failures, s.appliedAnyway)
}

// writeResult is the merged record of all writers.
type writeResult struct {
	records map[string]*nameRecord
	stats   writeStats
}

// final returns the state the server must end in, according to the record.
func (r writeResult) final() map[string]objState {
	out := map[string]objState{}
	for name, rec := range r.records {
		if rec.exists {
			out[name] = rec.state
		}
	}
	return out
}

// everCreated returns the names that existed at some point.
func (r writeResult) everCreated() []string {
	var out []string
	for name, rec := range r.records {
		if rec.created {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// runWriters runs plan against the ConfigMaps of ns with cs and returns
// once every writer is done (or ctx ended, which fails t).
func runWriters(t *testing.T, ctx context.Context, cs kubernetes.Interface, ns string, plan writePlan) writeResult {
	t.Helper()
	var (
		acked   atomic.Int64
		wg      sync.WaitGroup
		mu      sync.Mutex
		results = writeResult{records: map[string]*nameRecord{}}
	)
	seed := plan.seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("writers: seed %d", seed)
	for w := range plan.writers {
		quota := plan.total / plan.writers
		if w < plan.total%plan.writers {
			quota++
		}
		wr := &writer{
			t: t, id: w, plan: plan, acked: &acked,
			cms:     cs.CoreV1().ConfigMaps(ns),
			rng:     rand.New(rand.NewPCG(seed, uint64(w))),
			records: map[string]*nameRecord{},
		}
		for i := range plan.namesPerWriter {
			name := fmt.Sprintf("w%d-%02d", w, i)
			wr.names = append(wr.names, name)
			wr.records[name] = &nameRecord{known: map[string]bool{}}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			wr.run(ctx, quota)
			mu.Lock()
			defer mu.Unlock()
			maps.Copy(results.records, wr.records)
			results.stats.add(wr.stats)
		}()
	}
	wg.Wait()
	return results
}

// writer issues the writes of one goroutine.
type writer struct {
	t       *testing.T
	id      int
	plan    writePlan
	acked   *atomic.Int64
	cms     typedcorev1.ConfigMapInterface
	rng     *rand.Rand
	names   []string
	records map[string]*nameRecord
	stats   writeStats
}

func (w *writer) run(ctx context.Context, quota int) {
	// retry is the name of the last failed write, written again (as what
	// its read-back state calls for) before moving on.
	retry := ""
	for seq, done := 0, 0; done < quota; seq++ {
		if ctx.Err() != nil {
			w.t.Errorf("writer %d: %v after %d of %d writes", w.id, ctx.Err(), done, quota)
			return
		}
		name := retry
		if name == "" {
			name = w.names[w.rng.IntN(len(w.names))]
		}
		retry = ""
		rec := w.records[name]
		data := map[string]string{"writer": strconv.Itoa(w.id), "seq": strconv.Itoa(seq)}
		var (
			op  eventKind
			got *corev1.ConfigMap
			err error
		)
		switch {
		case !rec.exists:
			op = evAdd
			got, err = w.cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data}, metav1.CreateOptions{})
		case w.rng.IntN(4) == 0:
			op = evDelete
			rv := rec.state.RV
			err = w.cms.Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
		default:
			op = evUpdate
			got, err = w.cms.Update(ctx, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: rec.state.RV},
				Data:       data,
			}, metav1.UpdateOptions{})
		}
		if err != nil {
			w.stats.failures++
			if !w.plan.tolerant {
				w.t.Errorf("writer %d: %s of %s: %v", w.id, op, name, err)
				return
			}
			if !w.plan.quiet {
				w.t.Logf("writer %d: %s of %s failed, reading it back: %v", w.id, op, name, err)
			}
			if err := w.resolve(ctx, name, rec); err != nil {
				w.t.Errorf("writer %d: reading %s back after a failed %s: %v", w.id, name, op, err)
				return
			}
			retry = name
			continue
		}
		switch op {
		case evAdd, evUpdate:
			if got.Name != name || !maps.Equal(got.Data, data) || got.ResourceVersion == "" {
				w.t.Errorf("writer %d: %s of %s returned %s data=%v rv=%q, want data %v", w.id, op, name, got.Name, got.Data, got.ResourceVersion, data)
			}
			st := objState{RV: got.ResourceVersion, Data: nonEmpty(got.Data)}
			switch {
			case op == evUpdate:
				w.stats.updates++
			case rec.created:
				w.stats.recreates++
			default:
				w.stats.creates++
			}
			rec.exists, rec.created, rec.state = true, true, st
			rec.known[st.RV] = true
			rec.ops = append(rec.ops, event{kind: op, state: st})
		case evDelete:
			w.stats.deletes++
			rec.exists, rec.state = false, objState{}
			rec.ops = append(rec.ops, event{kind: evDelete})
		}
		done++
		n := w.acked.Add(1)
		if w.plan.onProgress != nil {
			w.plan.onProgress(n)
		}
	}
}

// resolve reads name back after a write whose outcome is unknown, retrying
// while the server does not answer, and sets rec to what the server holds.
func (w *writer) resolve(ctx context.Context, name string, rec *nameRecord) error {
	var lastErr error
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		cm, err := w.cms.Get(ctx, name, metav1.GetOptions{})
		switch {
		case err == nil:
			if !rec.exists || cm.ResourceVersion != rec.state.RV {
				w.stats.appliedAnyway++
			}
			rec.exists, rec.created = true, true
			rec.state = objState{RV: cm.ResourceVersion, Data: nonEmpty(cm.Data)}
			rec.known[cm.ResourceVersion] = true
			return true, nil
		case apierrors.IsNotFound(err):
			if rec.exists {
				w.stats.appliedAnyway++
			}
			rec.exists, rec.state = false, objState{}
			return true, nil
		default:
			lastErr = err
			return false, nil
		}
	})
	if err != nil {
		return fmt.Errorf("%w (last error: %v)", err, lastErr)
	}
	return nil
}
