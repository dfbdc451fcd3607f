package workqueue

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	testingclock "k8s.io/utils/clock/testing"
)

// recordingProvider hands out metrics that record every update under one
// lock, keyed by "<queue>/<metric>".
type recordingProvider struct {
	mu      sync.Mutex
	values  map[string]float64   // counters and gauges
	samples map[string][]float64 // histograms
	sets    chan string          // one send per Set, for goroutine-driven gauges
}

func newRecordingProvider() *recordingProvider {
	return &recordingProvider{values: map[string]float64{}, samples: map[string][]float64{}, sets: make(chan string, 100)}
}

type recordedMetric struct {
	p   *recordingProvider
	key string
}

func (m recordedMetric) Inc() { m.p.add(m.key, 1) }
func (m recordedMetric) Dec() { m.p.add(m.key, -1) }
func (m recordedMetric) Set(v float64) {
	m.p.mu.Lock()
	m.p.values[m.key] = v
	m.p.mu.Unlock()
	select {
	case m.p.sets <- fmt.Sprintf("%s=%g", m.key, v):
	default: // nobody is listening; the value is still in values
	}
}
func (m recordedMetric) Observe(v float64) {
	m.p.mu.Lock()
	defer m.p.mu.Unlock()
	m.p.samples[m.key] = append(m.p.samples[m.key], v)
}

func (p *recordingProvider) add(key string, d float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.values[key] += d
}

func (p *recordingProvider) value(key string) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.values[key]
}

func (p *recordingProvider) observed(key string) []float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.samples[key])
}

func (p *recordingProvider) metric(name, kind string) recordedMetric {
	return recordedMetric{p: p, key: name + "/" + kind}
}

func (p *recordingProvider) NewDepthMetric(name string) GaugeMetric { return p.metric(name, "depth") }
func (p *recordingProvider) NewAddsMetric(name string) CounterMetric {
	return p.metric(name, "adds")
}
func (p *recordingProvider) NewLatencyMetric(name string) HistogramMetric {
	return p.metric(name, "latency")
}
func (p *recordingProvider) NewWorkDurationMetric(name string) HistogramMetric {
	return p.metric(name, "work")
}
func (p *recordingProvider) NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric {
	return p.metric(name, "unfinished")
}
func (p *recordingProvider) NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric {
	return p.metric(name, "longest")
}
func (p *recordingProvider) NewRetriesMetric(name string) CounterMetric {
	return p.metric(name, "retries")
}

func TestQueueMetrics(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	p := newRecordingProvider()
	c := testingclock.NewFakeClock(epoch)
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "q", MetricsProvider: p, Clock: c})

	q.Add("a")
	q.Add("b")
	q.Add("a") // duplicate of a waiting item: not counted
	if got := p.value("q/adds"); got != 2 {
		t.Fatalf("adds = %v, want 2", got)
	}
	if got := p.value("q/depth"); got != 2 {
		t.Fatalf("depth = %v, want 2", got)
	}

	c.Step(time.Second)
	a, _ := q.Get()
	if got := p.value("q/depth"); got != 1 {
		t.Fatalf("depth after Get = %v, want 1", got)
	}
	if got := p.observed("q/latency"); !slices.Equal(got, []float64{1}) {
		t.Fatalf("latency = %v, want [1] (seconds queued)", got)
	}
	q.Add("a") // re-added while in flight: counted, queued on Done
	if got := p.value("q/adds"); got != 3 {
		t.Fatalf("adds = %v, want 3", got)
	}

	// The queue's goroutine publishes the in-flight totals every 500ms.
	c.Step(1500 * time.Millisecond)
	p.waitForSet(t, "q/unfinished=1.5")
	p.waitForSet(t, "q/longest=1.5")
	q.Add("b2")
	b, _ := q.Get()
	c.Step(500 * time.Millisecond)
	p.waitForSet(t, "q/unfinished=2.5") // a for 2s, b for 0.5s
	p.waitForSet(t, "q/longest=2")
	q.Done(b)

	q.Done(a)
	if got := p.observed("q/work"); !slices.Equal(got, []float64{0.5, 2}) {
		t.Fatalf("work durations = %v, want [0.5 2] (b then a)", got)
	}
	if got := p.value("q/depth"); got != 2 {
		t.Fatalf("depth with a and b2 waiting = %v, want 2", got)
	}

	// ShutDown waits for the metrics goroutine to end; nothing is published
	// afterwards.
	// Goroutines of earlier tests in this package may still be on their way
	// out, so the count is given until a deadline to come down; the queue's
	// own goroutine has ended when ShutDown returns.
	q.ShutDown()
	settled := func(context.Context) (bool, error) { return runtime.NumGoroutine() <= goroutines, nil }
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 10*time.Second, true, settled); err != nil {
		t.Fatalf("%d goroutines after ShutDown, %d before the queue existed", runtime.NumGoroutine(), goroutines)
	}
	for len(p.sets) > 0 {
		<-p.sets
	}
	c.Step(time.Second)
	select {
	case got := <-p.sets:
		t.Fatalf("published %s after ShutDown", got)
	default:
	}
}

// waitForSet reads published gauge values until want appears. Values from
// earlier ticks may precede it.
func (p *recordingProvider) waitForSet(t *testing.T, want string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case got := <-p.sets:
			if got == want {
				return
			}
		case <-timeout:
			t.Fatalf("%s was never published", want)
		}
	}
}

func TestUnnamedQueueHasNoMetrics(t *testing.T) {
	p := newRecordingProvider()
	c := testingclock.NewFakeClock(epoch)
	q := NewTypedWithConfig(TypedQueueConfig[string]{MetricsProvider: p, Clock: c})
	defer q.ShutDown()
	q.Add("a")
	if c.HasWaiters() {
		t.Fatal("an unnamed queue started the metrics ticker")
	}
	if len(p.values) != 0 {
		t.Fatalf("unnamed queue reported %v", p.values)
	}
}

func TestRetriesMetric(t *testing.T) {
	p := newRecordingProvider()
	c := testingclock.NewFakeClock(epoch)
	q := NewTypedRateLimitingQueueWithConfig(NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Minute),
		TypedRateLimitingQueueConfig[string]{Name: "rl", MetricsProvider: p, Clock: c})
	defer q.ShutDown()
	q.AddRateLimited("a")
	q.AddAfter("b", time.Second)
	q.AddAfter("c", 0)
	if got := p.value("rl/retries"); got != 3 {
		t.Fatalf("retries = %v, want 3", got)
	}
	if got := p.value("rl/adds"); got != 1 {
		t.Fatalf("adds = %v, want 1 (only c is added before the clock moves)", got)
	}
}

// globalTestProvider is what TestSetProvider installs; it is package-level
// so that the test also passes with -count > 1 (SetProvider works once per
// process).
var (
	globalTestProvider = newRecordingProvider()
	setProviderRuns    atomic.Int32
)

// TestSetProvider is the only test that touches the global provider.
func TestSetProvider(t *testing.T) {
	first, second := globalTestProvider, newRecordingProvider()
	SetProvider(first)
	SetProvider(second) // ignored: only the first call counts

	name := fmt.Sprint("global-", setProviderRuns.Add(1))
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: name, Clock: testingclock.NewFakeClock(epoch)})
	defer q.ShutDown()
	q.Add("x")
	if got := first.value(name + "/adds"); got != 1 {
		t.Fatalf("first provider adds = %v, want 1", got)
	}
	if len(second.values) != 0 {
		t.Fatalf("second SetProvider took effect: %v", second.values)
	}

	// An explicit provider still wins over the global one.
	own := newRecordingProvider()
	q2 := NewTypedWithConfig(TypedQueueConfig[string]{Name: "own", MetricsProvider: own, Clock: testingclock.NewFakeClock(epoch)})
	defer q2.ShutDown()
	q2.Add("x")
	if own.value("own/adds") != 1 || first.value("own/adds") != 0 {
		t.Fatal("explicit MetricsProvider was not used")
	}
}

// TestTypedWithMetricsUnderContention: producers and workers on a queue
// with metrics; when they are through, the counters agree with what was
// done.
func TestTypedWithMetricsUnderContention(t *testing.T) {
	const producers, workers, perProducer = 4, 4, 2000
	p := newRecordingProvider()
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "q", MetricsProvider: p})
	var processed atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				processed.Add(1)
				q.Done(item)
			}
		})
	}
	var adders sync.WaitGroup
	for w := range producers {
		adders.Go(func() {
			for i := range perProducer {
				q.Add(fmt.Sprint(w, "-", i))
			}
		})
	}
	adders.Wait()
	q.ShutDownWithDrain()
	wg.Wait()
	const total = producers * perProducer
	if got := processed.Load(); got != total {
		t.Fatalf("processed %d items, want %d", got, total)
	}
	if adds, depth := p.value("q/adds"), p.value("q/depth"); adds != total || depth != 0 {
		t.Fatalf("adds = %v, depth = %v, want %d, 0", adds, depth, total)
	}
	if lat, work := len(p.observed("q/latency")), len(p.observed("q/work")); lat != total || work != total {
		t.Fatalf("%d latency and %d work observations, want %d each", lat, work, total)
	}
}
