package synctrack

import (
	"strings"
	"testing"
)

// tracker is the part of both trackers that TestTrackersStaySynced drives.
type tracker struct {
	start, finish func()
	upstream      func()
	hasSynced     func() bool
	done          func() <-chan struct{}
}

func TestTrackersStaySynced(t *testing.T) {
	trackers := map[string]func() tracker{
		"single file": func() tracker {
			s := NewSingleFileTracker("s")
			return tracker{s.Start, s.Finished, s.UpstreamHasSynced, s.HasSynced, s.Done}
		},
		"async": func() tracker {
			a := NewAsyncTracker[string]("a")
			return tracker{func() { a.Start("late") }, func() { a.Finished("late") }, a.UpstreamHasSynced, a.HasSynced, a.Done}
		},
	}
	for name, newTracker := range trackers {
		t.Run(name, func(t *testing.T) {
			tr := newTracker()
			tr.upstream()
			if !tr.hasSynced() || !isClosed(tr.done()) {
				t.Fatal("not synced with nothing outstanding")
			}
			// Work started after the sync does not undo it.
			tr.start()
			if !tr.hasSynced() {
				t.Error("HasSynced turned false after a later Start")
			}
			if !isClosed(tr.done()) {
				t.Error("Done reopened after a later Start")
			}
			tr.finish()
			if !tr.hasSynced() {
				t.Error("HasSynced false after the later item finished")
			}
		})
	}
}

func TestSingleFileTrackerExtraFinished(t *testing.T) {
	tr := NewSingleFileTracker("s")
	tr.Start()
	tr.UpstreamHasSynced()
	tr.Finished()
	var recovered interface{}
	func() {
		defer func() { recovered = recover() }()
		tr.Finished()
	}()
	msg, ok := recovered.(string)
	if !ok || !strings.Contains(msg, "negative counter") {
		t.Errorf("extra Finished panicked with %v, want a negative counter message", recovered)
	}
	if !tr.HasSynced() {
		t.Error("a tracker that had synced reports unsynced after the logic error")
	}
}
