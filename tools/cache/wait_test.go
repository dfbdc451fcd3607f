package cache

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"
)

// scheduledChecker is a DoneChecker whose channel closes after delay
// (never for a negative delay). Inside a synctest bubble the delays are
// exact and cost no real time.
func scheduledChecker(t *testing.T, name string, delay time.Duration) DoneChecker {
	ch := make(chan struct{})
	switch {
	case delay == 0:
		close(ch)
	case delay > 0:
		timer := time.AfterFunc(delay, func() { close(ch) })
		t.Cleanup(func() { timer.Stop() })
	}
	return channelChecker{name: name, ch: ch}
}

// logLines returns the text logger's lines as "<seconds since start> <file>
// <message and values>", dropping the date, pid and line number.
func logLines(out string, start time.Time) []string {
	header := regexp.MustCompile(`^I\d{4} (\d\d:\d\d:\d\d\.\d+)\s+\d+ ([^:]+):(\d+)\] (.*)$`)
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		m := header.FindStringSubmatch(line)
		if m == nil {
			lines = append(lines, "unparsed: "+line)
			continue
		}
		at, _ := time.Parse("15:04:05.000000", m[1])
		elapsed := at.Sub(time.Date(0, 1, 1, start.Hour(), start.Minute(), start.Second(), start.Nanosecond(), time.UTC))
		lines = append(lines, strconv.Itoa(int(elapsed.Seconds()))+"s "+m[2]+" "+m[4])
	}
	return lines
}

func TestWaitFor(t *testing.T) {
	type checker struct {
		name  string
		delay time.Duration // 0: done at once, <0: never
	}
	three := []checker{{"first", 10 * time.Second}, {"second", 5 * time.Second}, {"last", 0}}
	stuck := []checker{{"first", 10 * time.Second}, {"second", -1}, {"last", 0}}
	for _, tc := range []struct {
		name     string
		what     string
		checkers []checker
		// stop: 0 never, <0 canceled before the call, >0 a deadline.
		stop     time.Duration
		cause    error // cancels with this cause at stop instead of a deadline
		wantDone bool
		wantLog  []string
	}{
		{name: "nothing to wait for, silent", wantDone: true},
		{name: "nothing to wait for", what: "caches", wantDone: true,
			wantLog: []string{`0s wait_test.go "Waiting" for="caches"`}},
		{name: "silent without what", checkers: three, wantDone: true},
		{name: "done in completion order", what: "caches", checkers: three, wantDone: true,
			wantLog: []string{
				`0s wait_test.go "Waiting" for="caches"`,
				`0s wait_test.go "Done waiting" for="caches" instance="last"`,
				`5s wait_test.go "Done waiting" for="caches" instance="second"`,
				`10s wait_test.go "Done waiting" for="caches" instance="first"`,
			}},
		{name: "deadline", what: "caches", checkers: stuck, stop: time.Minute,
			wantLog: []string{
				`0s wait_test.go "Waiting" for="caches"`,
				`0s wait_test.go "Done waiting" for="caches" instance="last"`,
				`10s wait_test.go "Done waiting" for="caches" instance="first"`,
				`60s wait_test.go "Timed out waiting" for="caches" cause="context deadline exceeded" instances=["second"]`,
			}},
		{name: "canceled before", what: "caches", checkers: stuck, stop: -1,
			wantLog: []string{
				`0s wait_test.go "Waiting" for="caches"`,
				`0s wait_test.go "Done waiting" for="caches" instance="last"`,
				`0s wait_test.go "Timed out waiting" for="caches" cause="context canceled" instances=["first","second"]`,
			}},
		{name: "canceled with a cause", what: "caches", checkers: stuck, stop: 5 * time.Second, cause: errors.New("go fish"),
			wantLog: []string{
				`0s wait_test.go "Waiting" for="caches"`,
				`0s wait_test.go "Done waiting" for="caches" instance="last"`,
				`5s wait_test.go "Timed out waiting" for="caches" cause="go fish" instances=["first","second"]`,
			}},
		{name: "none done, names sorted", what: "caches", checkers: []checker{{"b", -1}, {"c", -1}, {"a", -1}}, stop: time.Minute,
			wantLog: []string{
				`0s wait_test.go "Waiting" for="caches"`,
				`60s wait_test.go "Timed out waiting" for="caches" cause="context deadline exceeded" instances=["a","b","c"]`,
			}},
		{name: "silent failure", checkers: stuck, stop: time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				var out bytes.Buffer
				ctx := klog.NewContext(context.Background(), textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(&out))))
				switch {
				case tc.stop < 0:
					canceled, cancel := context.WithCancel(ctx)
					cancel()
					ctx = canceled
				case tc.stop > 0 && tc.cause != nil:
					withCause, cancel := context.WithCancelCause(ctx)
					timer := time.AfterFunc(tc.stop, func() { cancel(tc.cause) })
					defer timer.Stop()
					ctx = withCause
				case tc.stop > 0:
					withDeadline, cancel := context.WithTimeout(ctx, tc.stop)
					defer cancel()
					ctx = withDeadline
				}
				var checkers []DoneChecker
				for _, c := range tc.checkers {
					checkers = append(checkers, scheduledChecker(t, c.name, c.delay))
				}
				if done := WaitFor(ctx, tc.what, checkers...); done != tc.wantDone {
					t.Errorf("WaitFor = %v, want %v", done, tc.wantDone)
				}
				if got := logLines(out.String(), start); !reflect.DeepEqual(got, tc.wantLog) {
					t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.wantLog, "\n"))
				}
			})
		})
	}
}

// TestWaitForLogsCallersLine checks that WaitFor's messages name the line
// that called it.
func TestWaitForLogsCallersLine(t *testing.T) {
	var out bytes.Buffer
	ctx := klog.NewContext(context.Background(), textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(&out))))
	_, _, line, _ := runtime.Caller(0)
	WaitFor(ctx, "x", scheduledChecker(t, "a", 0))
	want := "wait_test.go:" + strconv.Itoa(line+1) + "]"
	if n := strings.Count(out.String(), want); n != 2 {
		t.Errorf("%d of 2 messages name %q:\n%s", n, want, out.String())
	}
}

func TestWaitForCacheSync(t *testing.T) {
	for _, tc := range []struct {
		name     string
		syncedAt time.Duration // <0: never
		stopAt   time.Duration // <0: already stopped; 0: never
		want     bool
	}{
		{name: "synced at once", syncedAt: 0, want: true},
		{name: "synced after polls", syncedAt: 350 * time.Millisecond, want: true},
		{name: "stopped before", syncedAt: -1, stopAt: -1},
		{name: "stopped while waiting", syncedAt: -1, stopAt: time.Second},
		{name: "stopped before it syncs", syncedAt: time.Minute, stopAt: time.Second},
	} {
		for _, variant := range []struct {
			name string
			wait func(stop <-chan struct{}, ctx context.Context, synced InformerSynced) bool
		}{
			{"WaitForCacheSync", func(stop <-chan struct{}, _ context.Context, synced InformerSynced) bool {
				return WaitForCacheSync(stop, synced, func() bool { return true })
			}},
			{"WaitForNamedCacheSync", func(stop <-chan struct{}, _ context.Context, synced InformerSynced) bool {
				return WaitForNamedCacheSync("test", stop, synced)
			}},
			{"WaitForNamedCacheSyncWithContext", func(_ <-chan struct{}, ctx context.Context, synced InformerSynced) bool {
				return WaitForNamedCacheSyncWithContext(ctx, synced)
			}},
		} {
			t.Run(variant.name+"/"+tc.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					var isSynced atomic.Bool
					switch {
					case tc.syncedAt == 0:
						isSynced.Store(true)
					case tc.syncedAt > 0:
						time.AfterFunc(tc.syncedAt, func() { isSynced.Store(true) })
					}
					stop := make(chan struct{})
					ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), klog.Background().V(10)))
					defer cancel()
					halt := func() { close(stop); cancel() }
					switch {
					case tc.stopAt < 0:
						halt()
					case tc.stopAt > 0:
						time.AfterFunc(tc.stopAt, halt)
					}
					if got := variant.wait(stop, ctx, isSynced.Load); got != tc.want {
						t.Errorf("= %v, want %v", got, tc.want)
					}
				})
			})
		}
	}
}

func TestIsDone(t *testing.T) {
	open := make(chan struct{})
	closed := make(chan struct{})
	close(closed)
	if IsDone(channelChecker{ch: open}) {
		t.Error("IsDone on an open channel")
	}
	if !IsDone(channelChecker{ch: closed}) {
		t.Error("IsDone false on a closed channel")
	}
}

func TestSyncResultAsError(t *testing.T) {
	cause := errors.New("shutting down")
	for _, tc := range []struct {
		name   string
		result SyncResult
		want   string
	}{
		{name: "synced", result: SyncResult{Synced: map[reflect.Type]bool{reflect.TypeFor[int](): true}}},
		{name: "one pending", want: "failed to sync all caches: string: shutting down", result: SyncResult{
			Err: cause, Synced: map[reflect.Type]bool{reflect.TypeFor[int](): true, reflect.TypeFor[string](): false}}},
		{name: "sorted", want: "failed to sync all caches: int, string: shutting down", result: SyncResult{
			Err: cause, Synced: map[reflect.Type]bool{reflect.TypeFor[string](): false, reflect.TypeFor[int](): false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.result.AsError()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("AsError = %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("AsError = %v, want %q", err, tc.want)
			}
			if !errors.Is(err, cause) {
				t.Errorf("AsError does not wrap the cause")
			}
		})
	}
}
