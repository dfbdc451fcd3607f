package binaries

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeClock is the reporter's clock in tests: time moves only when a fake
// step says so.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// fakeStep is a build step that "runs" for secs seconds of the fake clock,
// counting one unit per second, and calls tick every second as the ticker
// goroutine would; it fails with err at the end when err is set.
func fakeStep(clock *fakeClock, rep *reporter, key string, secs int, err error) buildStep {
	done := 0
	return buildStep{
		name: "building " + key,
		key:  key,
		run: func(context.Context) error {
			for i := 0; i < secs; i++ {
				clock.t = clock.t.Add(time.Second)
				done++
				rep.tick()
			}
			return err
		},
		count: func() string { return fmt.Sprintf("%d/%d packages", done, secs) },
	}
}

func TestProgress(t *testing.T) {
	boom := errors.New("exit status 1")
	tests := []struct {
		name  string
		live  bool
		steps []struct {
			key  string
			secs int
			err  error
		}
		last     map[string]time.Duration
		want     []string // lines written, in order
		wantErr  string
		wantTook map[string]time.Duration
	}{{
		name: "a log: a line at the start, every 15s and at the end of each step",
		steps: []struct {
			key  string
			secs int
			err  error
		}{{"etcd", 40, nil}, {"kube-apiserver", 10, nil}},
		last: map[string]time.Duration{"etcd": 50 * time.Second, "kube-apiserver": 5 * time.Second},
		want: []string{
			"testenv: [1/2] building etcd: 0/40 packages, 0s elapsed, about 50s left (last build 50s)",
			"testenv: [1/2] building etcd: 15/40 packages, 15s elapsed, about 35s left (last build 50s)",
			"testenv: [1/2] building etcd: 30/40 packages, 30s elapsed, about 20s left (last build 50s)",
			"testenv: [1/2] building etcd: done in 40s (40/40 packages)",
			"testenv: [2/2] building kube-apiserver: 0/10 packages, 0s elapsed, about 5s left (last build 5s)",
			"testenv: [2/2] building kube-apiserver: done in 10s (10/10 packages)",
		},
		wantTook: map[string]time.Duration{"etcd": 40 * time.Second, "kube-apiserver": 10 * time.Second},
	}, {
		name: "a log: a step longer than the last build, one without a record",
		steps: []struct {
			key  string
			secs int
			err  error
		}{{"etcd", 20, nil}, {"kube-controller-manager", 16, nil}},
		last: map[string]time.Duration{"etcd": 10 * time.Second},
		want: []string{
			"testenv: [1/2] building etcd: 0/20 packages, 0s elapsed, about 10s left (last build 10s)",
			"testenv: [1/2] building etcd: 15/20 packages, 15s elapsed, longer than the last build (10s)",
			"testenv: [1/2] building etcd: done in 20s (20/20 packages)",
			"testenv: [2/2] building kube-controller-manager: 0/16 packages, 0s elapsed",
			"testenv: [2/2] building kube-controller-manager: 15/16 packages, 15s elapsed",
			"testenv: [2/2] building kube-controller-manager: done in 16s (16/16 packages)",
		},
		wantTook: map[string]time.Duration{"etcd": 20 * time.Second, "kube-controller-manager": 16 * time.Second},
	}, {
		name: "a failed step is named with its log, later steps do not run",
		steps: []struct {
			key  string
			secs int
			err  error
		}{{"etcd", 3, boom}, {"kube-apiserver", 10, nil}},
		want: []string{
			"testenv: [1/2] building etcd: 0/3 packages, 0s elapsed",
			"testenv: [1/2] building etcd: FAILED after 3s (3/3 packages)",
		},
		wantErr:  "binaries: building etcd failed (log: /cache/x.build.log): exit status 1",
		wantTook: map[string]time.Duration{"etcd": 3 * time.Second},
	}, {
		name: "a terminal: one line redrawn every tick, ended when the step ends",
		live: true,
		steps: []struct {
			key  string
			secs int
			err  error
		}{{"etcd", 2, nil}},
		want: []string{
			"\r\x1b[Ktestenv: [1/1] building etcd: 0/2 packages, 0s elapsed" +
				"\r\x1b[Ktestenv: [1/1] building etcd: 1/2 packages, 1s elapsed" +
				"\r\x1b[Ktestenv: [1/1] building etcd: 2/2 packages, 2s elapsed" +
				"\r\x1b[Ktestenv: [1/1] building etcd: done in 2s (2/2 packages)",
		},
		wantTook: map[string]time.Duration{"etcd": 2 * time.Second},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{t: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)}
			var out bytes.Buffer
			rep := &reporter{w: &out, live: tt.live, every: quietInterval, now: clock.now}
			var steps []buildStep
			for _, s := range tt.steps {
				steps = append(steps, fakeStep(clock, rep, s.key, s.secs, s.err))
			}
			took, err := runSteps(context.Background(), rep, steps, tt.last, "/cache/x.build.log")
			if got := errString(err); got != tt.wantErr {
				t.Errorf("error %q, want %q", got, tt.wantErr)
			}
			if err != nil && !errors.Is(err, boom) {
				t.Errorf("error %v does not wrap the step's", err)
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("output:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if fmt.Sprint(took) != fmt.Sprint(tt.wantTook) {
				t.Errorf("took %v, want %v", took, tt.wantTook)
			}
			if !tt.live {
				assertGapsAtMost(t, out.String(), 30*time.Second)
			}
		})
	}
}

// assertGapsAtMost checks the "N elapsed" of consecutive lines of one step
// never differ by more than max.
func assertGapsAtMost(t *testing.T, out string, max time.Duration) {
	t.Helper()
	prev := time.Duration(0)
	for _, line := range strings.Split(out, "\n") {
		_, rest, ok := strings.Cut(line, "packages, ")
		if !ok {
			prev = 0
			continue
		}
		elapsed, _, _ := strings.Cut(rest, " elapsed")
		d, err := time.ParseDuration(elapsed)
		if err != nil {
			continue
		}
		if d-prev > max {
			t.Errorf("%v between two lines, more than %v", d-prev, max)
		}
		prev = d
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestSummary(t *testing.T) {
	steps := []buildStep{{key: modulesKey}, {key: Etcd}, {key: KubeAPIServer}}
	took := map[string]time.Duration{modulesKey: 70 * time.Second, Etcd: 110 * time.Second, KubeAPIServer: 480 * time.Second}
	got := summary(steps, took, 661*time.Second, "/cache/cp")
	want := "testenv: built etcd, kube-apiserver in 11m1s (modules 1m10s, etcd 1m50s, kube-apiserver 8m0s) into /cache/cp"
	if got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
}

func TestLineCounter(t *testing.T) {
	var log bytes.Buffer
	c := &lineCounter{w: &log}
	for _, chunk := range []string{
		"k8s.io/api/core/v1\nk8s.io/apiserver/pkg/server\n",
		"# k8s.io/broken\n./x.go:1:2: undefined: y\n",
		"go: downloading k8s.io/klog v2\n",
		"sigs.k8s.io/yaml\n",
	} {
		if _, err := c.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.lines.Load(); n != 3 {
		t.Errorf("counted %d packages, want 3", n)
	}
	if !strings.Contains(log.String(), "undefined: y") {
		t.Error("the output did not reach the log")
	}
}

func TestTimingsRoundTrip(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	if got := readTimings(); len(got) != 0 {
		t.Fatalf("no record yet, got %v", got)
	}
	if err := os.MkdirAll(filepath.Join(os.Getenv(CacheEnv), "controlplane"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeTimings(map[string]time.Duration{Etcd: 90 * time.Second, modulesKey: 30 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if err := writeTimings(map[string]time.Duration{Etcd: 100 * time.Second}); err != nil {
		t.Fatal(err)
	}
	got := readTimings()
	if got[Etcd] != 100*time.Second || got[modulesKey] != 30*time.Second {
		t.Errorf("timings %v, want etcd 1m40s and modules 30s", got)
	}
}

func TestModuleCounter(t *testing.T) {
	cache := t.TempDir()
	c, err := newModuleCounter(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.goMods) == 0 || len(c.sources) == 0 {
		t.Fatalf("%d go.mod files and %d sources from the embedded go.sum", len(c.goMods), len(c.sources))
	}
	// One of each appears in the cache.
	for _, p := range []string{c.goMods[0], c.sources[0]} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := fmt.Sprintf("module sources 1 of <=%d, go.mod files 1 of <=%d", len(c.sources), len(c.goMods))
	if got := c.String(); got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := escapePath("github.com/Azure/go-ansiterm"); got != "github.com/!azure/go-ansiterm" {
		t.Errorf("escapePath = %q", got)
	}
}
