package binaries

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// buildStep is one long part of a build: downloading the modules, or
// compiling one program.
type buildStep struct {
	name string // what it does, for people: "building kube-apiserver"
	key  string // its name in the recorded timings: "kube-apiserver"
	run  func(ctx context.Context) error
	// count says what the step has done so far ("812/2070 packages");
	// nil when there is nothing to count. It is called while run runs.
	count func() string
}

// stepError is a failed step: which one, and where the output of the
// commands it ran is.
type stepError struct {
	step string
	log  string
	err  error
}

func (e *stepError) Error() string {
	return fmt.Sprintf("binaries: %s failed (log: %s): %v", e.step, e.log, e.err)
}

func (e *stepError) Unwrap() error { return e.err }

// runSteps runs steps in order, reporting each to rep with the estimate
// last holds for its key, and returns how long each took by key. It stops
// at the first step that fails, returning a *stepError that names it and
// logPath.
func runSteps(ctx context.Context, rep *reporter, steps []buildStep, last map[string]time.Duration, logPath string) (map[string]time.Duration, error) {
	took := map[string]time.Duration{}
	for i, s := range steps {
		rep.begin(i+1, len(steps), s.name, last[s.key], s.count)
		err := s.run(ctx)
		took[s.key] = rep.end(err)
		if err != nil {
			return took, &stepError{step: s.name, log: logPath, err: err}
		}
	}
	return took, nil
}

// summary is the one line that ends a build: what was built, in how long,
// each step's share, and where the programs are.
func summary(steps []buildStep, took map[string]time.Duration, total time.Duration, dir string) string {
	var parts []string
	var built []string
	for _, s := range steps {
		parts = append(parts, fmt.Sprintf("%s %v", s.key, round(took[s.key])))
		if s.key != modulesKey {
			built = append(built, s.key)
		}
	}
	return fmt.Sprintf("testenv: built %s in %v (%s) into %s",
		strings.Join(built, ", "), round(total), strings.Join(parts, ", "), dir)
}
