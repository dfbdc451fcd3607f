package synctrack

import (
	"errors"
	"sync/atomic"
	"testing"
)

// gatedEval is an Evaluate function whose calls each block until the test
// releases them, in any order. Call i (from 0) returns i+1.
type gatedEval struct {
	calls   atomic.Int64
	started chan int        // receives i when call i starts
	release []chan struct{} // call i returns once release[i] is closed
	err     error           // returned by every call when set
}

func newGatedEval(n int) *gatedEval {
	g := &gatedEval{started: make(chan int, n)}
	for range n {
		g.release = append(g.release, make(chan struct{}))
	}
	return g
}

func (g *gatedEval) eval() (int, error) {
	i := int(g.calls.Add(1)) - 1
	g.started <- i
	<-g.release[i]
	return i + 1, g.err
}

type getResult struct {
	v   int
	err error
}

func asyncGet(z *Lazy[int]) chan getResult {
	out := make(chan getResult, 1)
	go func() {
		v, err := z.Get()
		out <- getResult{v, err}
	}()
	return out
}

// TestLazyNotifyDoesNotWaitForOlderEvaluation: a Get after Notify evaluates
// in parallel with an evaluation that started before the Notify, and the
// older result, finishing last, neither replaces the newer one in the cache
// nor causes another evaluation.
func TestLazyNotifyDoesNotWaitForOlderEvaluation(t *testing.T) {
	g := newGatedEval(2)
	z := &Lazy[int]{Evaluate: g.eval}

	first := asyncGet(z)
	if i := <-g.started; i != 0 {
		t.Fatalf("first evaluation is call %d", i)
	}
	z.Notify()
	second := asyncGet(z)
	if i := <-g.started; i != 1 {
		t.Fatalf("second evaluation is call %d", i)
	}
	close(g.release[1]) // the newer evaluation finishes first
	if r := <-second; r.v != 2 || r.err != nil {
		t.Fatalf("Get after Notify = %d, %v; want 2", r.v, r.err)
	}
	close(g.release[0])
	if r := <-first; r.v != 1 || r.err != nil {
		t.Fatalf("Get before Notify = %d, %v; want its own evaluation, 1", r.v, r.err)
	}
	if v, err := z.Get(); v != 2 || err != nil {
		t.Errorf("cached value = %d, %v; want 2, the newer result", v, err)
	}
	if n := g.calls.Load(); n != 2 {
		t.Errorf("Evaluate ran %d times, want 2", n)
	}
}

// TestLazyOlderEvaluationFinishingFirstIsReplaced: when the older evaluation
// finishes first, the newer one replaces it in the cache.
func TestLazyOlderEvaluationFinishingFirstIsReplaced(t *testing.T) {
	g := newGatedEval(2)
	z := &Lazy[int]{Evaluate: g.eval}
	first := asyncGet(z)
	<-g.started
	z.Notify()
	second := asyncGet(z)
	<-g.started
	close(g.release[0])
	if r := <-first; r.v != 1 {
		t.Fatalf("first Get = %d", r.v)
	}
	close(g.release[1])
	if r := <-second; r.v != 2 {
		t.Fatalf("second Get = %d", r.v)
	}
	if v, _ := z.Get(); v != 2 || g.calls.Load() != 2 {
		t.Errorf("cached value = %d after %d evaluations, want 2 after 2", v, g.calls.Load())
	}
}

// TestLazyWaitersShareOneEvaluation: Gets that arrive while an evaluation
// of the current generation is in flight wait for it instead of
// evaluating. (A Get arriving after it finished reads the cache instead;
// either way Evaluate runs once.)
func TestLazyWaitersShareOneEvaluation(t *testing.T) {
	g := newGatedEval(1)
	z := &Lazy[int]{Evaluate: g.eval}
	results := []chan getResult{asyncGet(z)}
	<-g.started
	for range 8 {
		results = append(results, asyncGet(z))
	}
	close(g.release[0])
	for i, ch := range results {
		if r := <-ch; r.v != 1 || r.err != nil {
			t.Errorf("Get %d = %d, %v; want 1", i, r.v, r.err)
		}
	}
	if n := g.calls.Load(); n != 1 {
		t.Errorf("Evaluate ran %d times for one generation, want 1", n)
	}
}

// TestLazyErrorsAreNotCached: a failed evaluation is returned but the next
// Get evaluates again.
func TestLazyErrorsAreNotCached(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	z := &Lazy[int]{Evaluate: func() (int, error) {
		calls++
		if calls == 1 {
			return 0, boom
		}
		return calls, nil
	}}
	if _, err := z.Get(); !errors.Is(err, boom) {
		t.Fatalf("first Get error = %v, want %v", err, boom)
	}
	if v, err := z.Get(); v != 2 || err != nil {
		t.Fatalf("second Get = %d, %v; want a new evaluation, 2", v, err)
	}
	if v, _ := z.Get(); v != 2 || calls != 2 {
		t.Errorf("third Get = %d after %d evaluations, want the cached 2 after 2", v, calls)
	}
}
