package binaries

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// quietInterval is the gap between two progress lines of a running step
// when the output is not a terminal (a CI log, a file): often enough to
// show the build is alive, rarely enough to keep the log readable.
const quietInterval = 15 * time.Second

// reporter writes the progress of a build's steps. On a terminal it keeps
// one line redrawn in place; elsewhere it writes a line when a step starts,
// one every quietInterval while it runs, and one when it ends.
//
// tick is called by the goroutine that owns the ticker (startTicks); every
// other method by the goroutine running the steps. mu guards all fields and
// every write to w.
type reporter struct {
	mu    sync.Mutex
	w     io.Writer
	live  bool
	every time.Duration
	now   func() time.Time

	steps    int           // number of steps of the build
	index    int           // 1-based index of the running step, 0 between steps
	name     string        // what the running step does
	started  time.Time     // when it started
	estimate time.Duration // its duration in the last build, 0 if unknown
	count    func() string // what it has done so far; nil for nothing to count
	lastLine time.Time     // when the last line was written
	drawn    bool          // live: a line is on the screen without its newline
}

// newReporter returns a reporter writing to w, redrawing one line when w is
// a terminal.
func newReporter(w io.Writer, now func() time.Time) *reporter {
	return &reporter{w: w, live: isTerminal(w), every: quietInterval, now: now}
}

// isTerminal reports whether w is a character device (a terminal) and the
// terminal understands cursor movement.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// begin starts step index (1-based) of steps. estimate is how long the step
// took last time (0: unknown); count, if not nil, says what it has done.
func (r *reporter) begin(index, steps int, name string, estimate time.Duration, count func() string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.index, r.steps, r.name, r.estimate, r.count = index, steps, name, estimate, count
	r.started = r.now()
	r.writeLine(r.status())
}

// tick writes the running step's status when it is due: at every call on a
// terminal, otherwise once every r.every.
func (r *reporter) tick() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.index == 0 {
		return
	}
	if !r.live && r.now().Sub(r.lastLine) < r.every {
		return
	}
	r.writeLine(r.status())
}

// end finishes the running step and returns how long it took. A failed
// step's line says so; the caller reports the error itself.
func (r *reporter) end(err error) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	took := r.now().Sub(r.started)
	verdict := "done in " + round(took).String()
	if err != nil {
		verdict = "FAILED after " + round(took).String()
	}
	line := fmt.Sprintf("testenv: [%d/%d] %s: %s", r.index, r.steps, r.name, verdict)
	if c := r.counted(); c != "" {
		line += " (" + c + ")"
	}
	r.writeLine(line)
	r.finishLine()
	r.index, r.count = 0, nil
	return took
}

// printf writes a line of its own, ending a live line first.
func (r *reporter) printf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finishLine()
	fmt.Fprintf(r.w, format+"\n", args...)
	r.lastLine = r.now()
}

// status is the running step's line: counts, elapsed time and, when the
// last build's time is known, how much is left.
func (r *reporter) status() string {
	elapsed := r.now().Sub(r.started)
	parts := []string{}
	if c := r.counted(); c != "" {
		parts = append(parts, c)
	}
	parts = append(parts, round(elapsed).String()+" elapsed")
	switch {
	case r.estimate <= 0:
	case elapsed < r.estimate:
		parts = append(parts, fmt.Sprintf("about %v left (last build %v)", round(r.estimate-elapsed), round(r.estimate)))
	default:
		parts = append(parts, fmt.Sprintf("longer than the last build (%v)", round(r.estimate)))
	}
	return fmt.Sprintf("testenv: [%d/%d] %s: %s", r.index, r.steps, r.name, strings.Join(parts, ", "))
}

func (r *reporter) counted() string {
	if r.count == nil {
		return ""
	}
	return r.count()
}

// writeLine writes line: redrawn over the previous one on a terminal, as a
// line of its own otherwise. r.mu is held.
func (r *reporter) writeLine(line string) {
	if r.live {
		fmt.Fprintf(r.w, "\r\033[K%s", line)
		r.drawn = true
	} else {
		fmt.Fprintln(r.w, line)
	}
	r.lastLine = r.now()
}

// finishLine ends a live line so that the next output starts below it.
// r.mu is held.
func (r *reporter) finishLine() {
	if r.drawn {
		fmt.Fprintln(r.w)
		r.drawn = false
	}
}

// round shortens d for people: whole seconds.
func round(d time.Duration) time.Duration {
	return d.Round(time.Second)
}
