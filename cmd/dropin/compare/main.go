// Command compare reads the results of a project's tests run once against
// k8s.io/client-go and once against the kubeclient drop-in, and fails when a
// test that passed on client-go does not pass on the drop-in. It is the
// verdict step of hack/test-dropin.sh.
//
//	go run ./cmd/dropin/compare -name cli-runtime BASE_DIR DROPIN_DIR
//
// Each directory holds the output of `go test -json` in files named
// *.gotest.json and Ginkgo JSON reports (--ginkgo.json-report) in files named
// *.ginkgo.json. Go tests are keyed by package and test name (subtests
// included), Ginkgo specs by suite directory, container texts and leaf text.
// A test that passed on client-go and is absent from the drop-in run (its
// package did not build, or the binary died) counts as a failure.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	name := flag.String("name", "project", "project name used in the report")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: compare [-name NAME] BASE_DIR DROPIN_DIR")
		os.Exit(2)
	}
	base, err := readResults(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	dropin, err := readResults(flag.Arg(1))
	if err != nil {
		fail(err)
	}
	regressions := 0
	for _, kind := range []kind{goTest, ginkgoSpec} {
		r := compare(base[kind], dropin[kind])
		if r.total == 0 {
			continue
		}
		fmt.Printf("%s %s: %d passed on client-go, %d passed on the drop-in (%d run on client-go, %d on the drop-in)\n",
			*name, kind, r.basePassed, r.dropinPassed, r.total, len(dropin[kind]))
		for _, k := range r.regressed {
			fmt.Printf("  FAIL on the drop-in, passes on client-go: %s (%s)\n", k, stateOrMissing(dropin[kind], k))
		}
		for _, k := range r.fixed {
			fmt.Printf("  passes on the drop-in only: %s\n", k)
		}
		regressions += len(r.regressed)
	}
	if regressions > 0 {
		fmt.Printf("%s: %d tests that pass on client-go fail on the drop-in\n", *name, regressions)
		os.Exit(1)
	}
	fmt.Printf("%s: every test that passes on client-go passes on the drop-in\n", *name)
}

// result is the comparison of one kind of test between the two runs.
type result struct {
	total, basePassed, dropinPassed int
	regressed, fixed                []string // sorted test keys
}

func compare(base, dropin map[string]state) result {
	r := result{total: len(base)}
	for k, s := range base {
		if s == passed {
			r.basePassed++
			if dropin[k] != passed {
				r.regressed = append(r.regressed, k)
			}
		}
	}
	for k, s := range dropin {
		if s == passed {
			r.dropinPassed++
			if base[k] != passed {
				r.fixed = append(r.fixed, k)
			}
		}
	}
	sort.Strings(r.regressed)
	sort.Strings(r.fixed)
	return r
}

func stateOrMissing(m map[string]state, k string) string {
	if s, ok := m[k]; ok {
		return string(s)
	}
	return "not run: its package failed to build or its test binary died"
}

// readResults reads every result file of dir.
func readResults(dir string) (map[kind]map[string]state, error) {
	out := map[kind]map[string]state{goTest: {}, ginkgoSpec: {}}
	for _, k := range []kind{goTest, ginkgoSpec} {
		files, err := filepath.Glob(filepath.Join(dir, "*"+k.suffix()))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			if err := k.parse(data, filepath.Base(f), out[k]); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
		}
	}
	return out, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "compare:", err)
	os.Exit(2)
}
