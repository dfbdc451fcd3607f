package binaries

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// stamp is part of the cache key; change it when the way the programs are
// built changes (flags, version stamping) so that old builds are not reused.
const stamp = "v2"

// CacheDir returns the folder that holds (or will hold) the programs built
// from the embedded module for this platform.
func CacheDir() (string, error) {
	root, err := CacheRoot()
	if err != nil {
		return "", err
	}
	v, err := EmbeddedVersions()
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("kube-apiserver-%s_etcd-%s_%s-%s_stamp-%s", v.Kubernetes, v.Etcd, runtime.GOOS, runtime.GOARCH, stamp)
	return filepath.Join(root, "controlplane", key), nil
}

// Build makes sure the cache holds names, building the missing ones with
// one `go build` of the embedded module, and returns the cache folder.
// Concurrent callers, in this process or others, are serialised by a lock
// file next to the folder, so a program is built once. Progress goes to
// log (nil discards it): each step (downloading the modules, building each
// program) with its counts, elapsed time and, when an earlier build's
// times are recorded, an estimate; a live line when log is a terminal, a
// line every 15 seconds otherwise; then a one-line summary. The commands'
// output is kept in <folder>.build.log, which a failed build names. A cold
// build of all three programs takes 20 to 40 CPU-minutes; later calls
// return at once.
func Build(ctx context.Context, log io.Writer, names ...string) (string, error) {
	if log == nil {
		log = io.Discard
	}
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	unlock, err := lockFile(dir + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()

	var missing []string
	for _, name := range names {
		if !known(name) {
			return "", fmt.Errorf("binaries: unknown program %q", name)
		}
		if !isExecutable(filepath.Join(dir, name)) {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return dir, nil
	}
	started := time.Now()
	rep := newReporter(log, time.Now)
	logPath := dir + ".build.log"
	rep.printf("testenv: building %s from the Go module proxy into %s (once per version; a cold build takes 20-40 CPU-minutes; log: %s)",
		strings.Join(missing, ", "), dir, logPath)
	steps, cleanup, err := buildSteps(dir, missing, logPath)
	if err != nil {
		return "", err
	}
	defer cleanup()
	stopTicks := startTicks(rep, time.Second)
	took, err := runSteps(ctx, rep, steps, readTimings(), logPath)
	stopTicks()
	if err != nil {
		return "", err
	}
	if err := writeTimings(took); err != nil {
		rep.printf("testenv: recording the build times: %v", err)
	}
	rep.printf("%s", summary(steps, took, time.Since(started), dir))
	return dir, nil
}

// startTicks calls rep.tick every period from a goroutine of its own until
// the returned function is called; that function returns once the
// goroutine has ended.
func startTicks(rep *reporter, period time.Duration) (stop func()) {
	ticker := time.NewTicker(period)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				rep.tick()
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// modulesKey is the timings key of the download step.
const modulesKey = "modules"

// buildSteps prepares the build of names into out: it writes the embedded
// module to a temporary folder and returns the steps (download the
// modules, then one `go build` per program into a staging folder inside
// out, each program moved into out once built, so that out never holds a
// half-written program), and the function that removes the temporary
// folders. The commands' output goes to logPath.
func buildSteps(out string, names []string, logPath string) ([]buildStep, func(), error) {
	v, err := EmbeddedVersions()
	if err != nil {
		return nil, nil, err
	}
	goTool, err := findGo()
	if err != nil {
		return nil, nil, err
	}
	src, err := os.MkdirTemp("", "testenv-controlplane-src-")
	if err != nil {
		return nil, nil, err
	}
	staging, err := os.MkdirTemp(out, ".staging-")
	if err != nil {
		os.RemoveAll(src)
		return nil, nil, err
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		os.RemoveAll(src)
		os.RemoveAll(staging)
		return nil, nil, err
	}
	cleanup := func() {
		logFile.Close()
		os.RemoveAll(src)
		os.RemoveAll(staging)
	}
	if err := writeModule(src); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("binaries: writing the build module: %w", err)
	}

	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=0")
	// goCmd runs the go command in the module, its output to w (and so to
	// the log), and returns its error with the output's last lines.
	goCmd := func(ctx context.Context, w io.Writer, args ...string) error {
		fmt.Fprintf(logFile, "$ go %s\n", strings.Join(args, " "))
		var tail bytes.Buffer
		cmd := exec.CommandContext(ctx, goTool, args...)
		cmd.Dir = src
		cmd.Env = env
		cmd.Stdout = io.MultiWriter(w, &tail)
		cmd.Stderr = cmd.Stdout
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go %s: %w\n%s", args[0], err, lastLines(tail.String(), 20))
		}
		return nil
	}

	// Counts for the progress lines: module files in the module cache, and
	// per program the packages it imports (known once the modules are
	// there) and those compiled so far.
	var modules fmt.Stringer
	var gomodcache bytes.Buffer
	if goCmd(context.Background(), &gomodcache, "env", "GOMODCACHE") == nil {
		if c, err := newModuleCounter(strings.TrimSpace(gomodcache.String())); err == nil {
			modules = c
		}
	}
	imports := map[string]*atomic.Int64{}
	compiled := map[string]*lineCounter{}
	for _, name := range names {
		imports[name] = new(atomic.Int64)
		compiled[name] = &lineCounter{w: logFile}
	}

	steps := []buildStep{{
		name: "resolving and downloading modules",
		key:  modulesKey,
		run: func(ctx context.Context) error {
			if err := goCmd(ctx, logFile, "mod", "download"); err != nil {
				return err
			}
			var list bytes.Buffer
			if goCmd(ctx, &list, "list", "-f", "{{.ImportPath}} {{len .Deps}}", "./cmd/...") == nil {
				for _, line := range strings.Split(list.String(), "\n") {
					pkg, deps, _ := strings.Cut(line, " ")
					n, err := strconv.Atoi(deps)
					if c := imports[path.Base(pkg)]; c != nil && err == nil {
						c.Store(int64(n) + 1)
					}
				}
			}
			return nil
		},
	}}
	if modules != nil {
		steps[0].count = modules.String
	}
	for _, name := range names {
		steps = append(steps, buildStep{
			name: "building " + name,
			key:  name,
			run: func(ctx context.Context) error {
				err := goCmd(ctx, compiled[name], "build", "-v", "-trimpath", "-ldflags="+versionLDFlags(v.Kubernetes),
					"-o", filepath.Join(staging, name), "./cmd/"+name)
				if err != nil {
					return err
				}
				return os.Rename(filepath.Join(staging, name), filepath.Join(out, name))
			},
			count: func() string {
				n := compiled[name].lines.Load()
				if total := imports[name].Load(); total > 0 {
					return fmt.Sprintf("%d packages compiled of %d", n, total)
				}
				return fmt.Sprintf("%d packages compiled", n)
			},
		})
	}
	return steps, cleanup, nil
}

// lineCounter passes what `go build -v` writes on to w and counts the
// lines that name a package (the compiled ones), leaving out errors and
// the "# pkg" headers above them. Write is called by the command's
// copying goroutine; lines is read by the ticker's.
type lineCounter struct {
	w       io.Writer
	lines   atomic.Int64
	partial bool // the last write ended inside a line
}

func (c *lineCounter) Write(p []byte) (int, error) {
	for _, line := range bytes.SplitAfter(p, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		complete := line[len(line)-1] == '\n'
		if !c.partial && complete && isPackageLine(line) {
			c.lines.Add(1)
		}
		c.partial = !complete
	}
	return c.w.Write(p)
}

// isPackageLine reports whether line (with its newline) is an import path
// alone, as `go build -v` prints the packages it compiles.
func isPackageLine(line []byte) bool {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return len(line) > 0 && line[0] != '#' && !bytes.ContainsAny(line, " \t:")
}

// versionLDFlags stamps the release into the programs, as an official build
// does (kube-apiserver's /version, kube-controller-manager --version). -s
// drops the symbol table to keep the cache small.
func versionLDFlags(release string) string {
	version := strings.TrimPrefix(release, "v")
	major, rest, _ := strings.Cut(version, ".")
	minor, _, _ := strings.Cut(rest, ".")
	flags := []string{"-s"}
	for _, pkg := range []string{"k8s.io/component-base/version", "k8s.io/client-go/pkg/version"} {
		flags = append(flags,
			"-X", pkg+".gitVersion="+release,
			"-X", pkg+".gitMajor="+major,
			"-X", pkg+".gitMinor="+minor,
			"-X", pkg+".gitTreeState=clean",
			"-X", pkg+".buildDate=1970-01-01T00:00:00Z")
	}
	return strings.Join(flags, " ")
}

// findGo returns the go command: the one on PATH, else the one of the
// toolchain that built this program.
func findGo() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if isExecutable(p) {
		return p, nil
	}
	return "", fmt.Errorf("binaries: no go command on PATH to build the control plane; set %s to a folder holding %s",
		DirEnv, strings.Join(All, ", "))
}
