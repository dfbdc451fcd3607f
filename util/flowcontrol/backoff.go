package flowcontrol

import (
	"math/rand/v2"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// backoffEntry is the backoff state of one key.
type backoffEntry struct {
	// backoff is the current delay of the key.
	backoff time.Duration
	// lastUpdate is when Next last moved the delay.
	lastUpdate time.Time
}

// Backoff tracks an exponential backoff delay per key. Each Next call for
// a key doubles its delay, starting from the initial delay and capped at the
// maximum; a key left alone for long enough (by default twice the maximum)
// starts over from the initial delay.
//
// The embedded RWMutex guards the per-key state; all methods take it
// themselves.
type Backoff struct {
	sync.RWMutex
	// Clock is the time source.
	Clock clock.Clock
	// HasExpiredFunc decides whether the state of a key last updated at
	// lastUpdate has expired at eventTime, so that it restarts from the
	// initial delay and may be collected by GC. When nil, state expires once
	// more than 2*maxDuration has passed since lastUpdate.
	HasExpiredFunc func(eventTime time.Time, lastUpdate time.Time, maxDuration time.Duration) bool

	initial         time.Duration
	maxDuration     time.Duration
	maxJitterFactor float64
	entries         map[string]*backoffEntry
}

// NewBackOff returns a Backoff on the real clock that starts at initial and
// doubles up to max.
func NewBackOff(initial, max time.Duration) *Backoff {
	return NewBackOffWithJitter(initial, max, 0)
}

// NewBackOffWithJitter is NewBackOff with jitter: every delay is lengthened
// by a random fraction, up to maxJitterFactor, of the delay before it.
func NewBackOffWithJitter(initial, max time.Duration, maxJitterFactor float64) *Backoff {
	return newBackoff(clock.RealClock{}, initial, max, maxJitterFactor)
}

// NewFakeBackOff is NewBackOff on the clock tc, for tests.
func NewFakeBackOff(initial, max time.Duration, tc clock.Clock) *Backoff {
	return newBackoff(tc, initial, max, 0)
}

// NewFakeBackOffWithJitter is NewBackOffWithJitter on the clock tc, for
// tests.
func NewFakeBackOffWithJitter(initial, max time.Duration, tc clock.Clock, maxJitterFactor float64) *Backoff {
	return newBackoff(tc, initial, max, maxJitterFactor)
}

func newBackoff(c clock.Clock, initial, max time.Duration, maxJitterFactor float64) *Backoff {
	return &Backoff{
		Clock:           c,
		initial:         initial,
		maxDuration:     max,
		maxJitterFactor: maxJitterFactor,
		entries:         map[string]*backoffEntry{},
	}
}

// Get returns the current delay of id, or zero when id has none.
func (p *Backoff) Get(id string) time.Duration {
	p.RLock()
	defer p.RUnlock()
	if e, ok := p.entries[id]; ok {
		return e.backoff
	}
	return 0
}

// Next moves the delay of id one step: to the initial delay when id has no
// state or its state has expired at eventTime, otherwise to twice the
// current delay (plus jitter), capped at the maximum. It records the
// clock's current time as the update time.
func (p *Backoff) Next(id string, eventTime time.Time) {
	p.Lock()
	defer p.Unlock()
	e, ok := p.entries[id]
	if !ok || p.expired(eventTime, e.lastUpdate) {
		e = &backoffEntry{backoff: p.initial}
		e.backoff += p.jitter(e.backoff)
		p.entries[id] = e
	} else {
		e.backoff = min(2*e.backoff+p.jitter(e.backoff), p.maxDuration)
	}
	e.lastUpdate = p.Clock.Now()
}

// Reset forgets the state of id.
func (p *Backoff) Reset(id string) {
	p.DeleteEntry(id)
}

// IsInBackOffSince reports whether less than the current delay of id has
// passed between eventTime and now. It is false when id has no state or
// its state has expired at eventTime.
func (p *Backoff) IsInBackOffSince(id string, eventTime time.Time) bool {
	p.RLock()
	defer p.RUnlock()
	e, ok := p.entries[id]
	if !ok || p.expired(eventTime, e.lastUpdate) {
		return false
	}
	return p.Clock.Since(eventTime) < e.backoff
}

// IsInBackOffSinceUpdate reports whether less than the current delay of id
// separates eventTime from the last update of id. It is false when id has
// no state or its state has expired at eventTime.
func (p *Backoff) IsInBackOffSinceUpdate(id string, eventTime time.Time) bool {
	p.RLock()
	defer p.RUnlock()
	e, ok := p.entries[id]
	if !ok || p.expired(eventTime, e.lastUpdate) {
		return false
	}
	return eventTime.Sub(e.lastUpdate) < e.backoff
}

// GC forgets every key whose state has expired now (by default, keys not
// updated for more than twice the maximum delay). Callers should run it
// periodically so that the Backoff does not grow without bound.
func (p *Backoff) GC() {
	p.Lock()
	defer p.Unlock()
	now := p.Clock.Now()
	for id, e := range p.entries {
		if p.expired(now, e.lastUpdate) {
			delete(p.entries, id)
		}
	}
}

// DeleteEntry forgets the state of id.
func (p *Backoff) DeleteEntry(id string) {
	p.Lock()
	defer p.Unlock()
	delete(p.entries, id)
}

// jitter returns a random extra delay of up to maxJitterFactor*delay.
func (p *Backoff) jitter(delay time.Duration) time.Duration {
	if p.maxJitterFactor <= 0 {
		return 0
	}
	return time.Duration(rand.Float64() * p.maxJitterFactor * float64(delay))
}

// expired applies HasExpiredFunc, or the default rule, to one entry.
func (p *Backoff) expired(eventTime, lastUpdate time.Time) bool {
	if p.HasExpiredFunc != nil {
		return p.HasExpiredFunc(eventTime, lastUpdate, p.maxDuration)
	}
	return eventTime.Sub(lastUpdate) > 2*p.maxDuration
}
