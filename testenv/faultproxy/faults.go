package faultproxy

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// Fault is one kind of misbehaviour.
type Fault int

// The faults, in the order Stats reports them.
const (
	// None forwards the request untouched.
	None Fault = iota
	// Reset closes the client's connection with a TCP reset before any
	// answer.
	Reset
	// Cut forwards the answer, then, in the middle of one of its first
	// chunks, closes the connection: for a watch, part of an event arrives
	// and the stream ends.
	Cut
	// Delay holds the request for up to Schedule.MaxDelay, then forwards
	// it.
	Delay
	// TooManyRequests answers 429 with a Retry-After header and a Status
	// body, as kube-apiserver's priority and fairness does.
	TooManyRequests
	// ServerError answers 500 or 503 with a Status body.
	ServerError
	// Stall forwards the answer's headers, then sends nothing until the
	// client goes away or Schedule.MaxStall passes, then resets.
	Stall

	numFaults
)

var faultNames = [...]string{"none", "reset", "cut", "delay", "429", "5xx", "stall"}

func (f Fault) String() string {
	if f >= 0 && f < numFaults {
		return faultNames[f]
	}
	return fmt.Sprintf("Fault(%d)", int(f))
}

// Schedule decides which requests fail and how.
type Schedule struct {
	// Seed makes the draws repeatable.
	Seed uint64
	// Rate is the probability, 0 to 1, that an eligible request gets a
	// fault.
	Rate float64
	// WatchRate, when not zero, replaces Rate for watch requests. Watches
	// are few and long (an informer opens one and keeps it), so a soak
	// wants them to fail more often than the many short requests.
	WatchRate float64
	// EventCutRate is the probability, 0 to 1, that a chunk of a watch
	// stream that drew no fault (a chunk is usually one event) is cut in
	// the middle, ending the stream as Cut does. Without it a watch that
	// starts well runs untouched until it ends.
	EventCutRate float64
	// Weights are the relative odds of each fault once a request is
	// picked; nil means every fault but None with weight 1. Stall and Cut
	// apply to watch requests only (other requests draw again among the
	// rest).
	Weights map[Fault]int
	// MaxDelay bounds Delay; zero means two seconds.
	MaxDelay time.Duration
	// MaxStall bounds Stall; zero means 30 seconds.
	MaxStall time.Duration
	// RetryAfter is the Retry-After of a 429, in seconds; zero means 1.
	RetryAfter int
	// Eligible picks the requests that may fail; nil means all.
	Eligible func(*http.Request) bool
}

// isWatch reports whether r asks for a stream of events.
func isWatch(r *http.Request) bool {
	q := r.URL.Query()
	return q.Get("watch") == "true" || q.Get("watch") == "1" || strings.Contains(r.URL.Path, "/watch/")
}

// draw picks the fault for r with rng; the caller holds the lock that
// guards rng.
func (s *Schedule) draw(rng *rand.Rand, r *http.Request) Fault {
	if s.Eligible != nil && !s.Eligible(r) {
		return None
	}
	watch := isWatch(r)
	rate := s.Rate
	if watch && s.WatchRate != 0 {
		rate = s.WatchRate
	}
	if rng.Float64() >= rate {
		return None
	}
	total := 0
	var choices []Fault
	var weights []int
	for f := Reset; f < numFaults; f++ {
		if (f == Cut || f == Stall) && !watch {
			continue
		}
		w := 1
		if s.Weights != nil {
			w = s.Weights[f]
		}
		if w > 0 {
			choices = append(choices, f)
			weights = append(weights, w)
			total += w
		}
	}
	if total == 0 {
		return None
	}
	n := rng.IntN(total)
	for i, w := range weights {
		if n < w {
			return choices[i]
		}
		n -= w
	}
	return None
}

func (s *Schedule) maxDelay() time.Duration {
	if s.MaxDelay > 0 {
		return s.MaxDelay
	}
	return 2 * time.Second
}

func (s *Schedule) maxStall() time.Duration {
	if s.MaxStall > 0 {
		return s.MaxStall
	}
	return 30 * time.Second
}

func (s *Schedule) retryAfter() int {
	if s.RetryAfter > 0 {
		return s.RetryAfter
	}
	return 1
}
