package harness

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/bench/internal/fixture"
)

// readerCount is the number of readers of the readers workload, as in
// issue 25: two worker goroutines of a controller.
const readerCount = 2

// readersInformer is the informer workload with readers: from the start
// of the sync to the end of the event stream, two goroutines read the
// cache as controllers' workers do (range over labels and annotations,
// a selector's Matches, DeepCopy), one pass over every cached object per
// readerEvery notifications each, so that both libraries do the same
// reading.
func readersInformer(ctx context.Context, lib Lib, p Params, res *fixture.Resource) (map[string]float64, error) {
	if !res.Typed {
		return nil, fmt.Errorf("%s has no typed client; use the dynamic workload", res.Name)
	}
	inf, err := lib.TypedInformer(p.Host, res.Name, p.Format == "protobuf")
	if err != nil {
		return nil, err
	}
	return measureInformer(ctx, inf, p, true)
}

// readerEvery is how many handler notifications a reader waits for
// between two passes: twenty passes each over a run of N objects and N
// events.
func readerEvery(p Params) int64 { return max(1, int64(p.N+p.Events)/20) }

// readers are the reading goroutines of one measurement. start launches
// them; stop ends them and waits.
type readers struct {
	list   func() []any
	ticks  []chan struct{}
	stopCh chan struct{}
	once   sync.Once
	wg     sync.WaitGroup
	passes atomic.Int64
	objs   atomic.Int64
	passNs atomic.Int64
	bad    atomic.Int64
	sink   atomic.Int64
}

// newReaders returns readers of list, woken by c every `every`
// notifications.
func newReaders(list func() []any, c *Counter, every int64) *readers {
	r := &readers{list: list, stopCh: make(chan struct{})}
	for range readerCount {
		r.ticks = append(r.ticks, make(chan struct{}, 1))
	}
	c.setTicks(every, r.ticks)
	return r
}

func (r *readers) start() {
	sel := labels.SelectorFromSet(labels.Set{"app.kubernetes.io/part-of": "shop"})
	for _, tick := range r.ticks {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for {
				select {
				case <-r.stopCh:
					return
				case <-tick:
				}
				r.pass(sel)
			}
		}()
	}
}

// pass reads every cached object once.
func (r *readers) pass(sel labels.Selector) {
	start := time.Now()
	n := 0
	objs := r.list()
	for _, obj := range objs {
		m, ok := obj.(metav1.Object)
		ro, ok2 := obj.(runtime.Object)
		if !ok || !ok2 {
			r.bad.Add(1)
			continue
		}
		for k, v := range m.GetLabels() {
			n += len(k) + len(v)
		}
		for k, v := range m.GetAnnotations() {
			n += len(k) + len(v)
		}
		if sel.Matches(labels.Set(m.GetLabels())) {
			n++
		}
		if cp, ok := ro.DeepCopyObject().(metav1.Object); ok {
			n += len(cp.GetName())
		}
	}
	r.sink.Add(int64(n))
	r.objs.Add(int64(len(objs)))
	r.passNs.Add(int64(time.Since(start)))
	r.passes.Add(1)
}

// stop ends the readers and waits for them; it may be called again.
func (r *readers) stop() {
	r.once.Do(func() { close(r.stopCh) })
	r.wg.Wait()
}

// report adds the readers' metrics to m.
func (r *readers) report(m map[string]float64) error {
	passes := r.passes.Load()
	m["reader_passes"] = float64(passes)
	if passes > 0 {
		m["reader_pass_ms"] = float64(r.passNs.Load()) / float64(passes) / 1e6
		m["reader_objs_per_pass"] = float64(r.objs.Load()) / float64(passes)
	}
	if b := r.bad.Load(); b != 0 {
		return fmt.Errorf("readers found %d cached objects without metadata", b)
	}
	if passes == 0 {
		return fmt.Errorf("the readers made no pass")
	}
	return nil
}
