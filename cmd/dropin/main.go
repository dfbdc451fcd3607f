// Command dropin writes this library as module k8s.io/client-go, so that a
// project whose dependencies (controller-runtime, k8s.io/cli-runtime,
// k8s.io/kubectl, other generated clientsets) import k8s.io/client-go can use
// it with one replace directive:
//
//	go run ./cmd/dropin -o /path/to/dropin
//	go mod edit -replace k8s.io/client-go=/path/to/dropin   # in the project
//
// The output holds every package of the library module (generated code
// included) with its import paths rewritten, a go.mod that requires what
// k8s.io/client-go v0.37.2 requires (so the project's module graph selects
// the same versions), a go.sum, the LICENSE and a README naming the
// kubeclient commit it was made from. Nested modules (bench, test/integration),
// cmd/, hack/ and examples/ are left out; test files only with -tests.
//
// The output is reproducible: the same source tree gives the same bytes. The
// drop-in stands in for client-go v0.37.x and is used with k8s.io/api and
// k8s.io/apimachinery v0.37.x.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	var (
		out    = flag.String("o", "", "output directory (created; an earlier drop-in there is replaced)")
		src    = flag.String("src", ".", "root of the kubeclient checkout (module github.com/kubeclient/client-go)")
		tests  = flag.Bool("tests", false, "include _test.go files")
		commit = flag.String("commit", "", "kubeclient commit to record (default: git rev-parse HEAD in -src, +dirty for uncommitted changes)")
	)
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./cmd/dropin -o DIR [-tests] [-src DIR] [-commit SHA]")
		os.Exit(2)
	}
	dir, err := filepath.Abs(*out)
	if err != nil {
		fail(err)
	}
	root, err := filepath.Abs(*src)
	if err != nil {
		fail(err)
	}
	rev := *commit
	if rev == "" {
		rev = sourceCommit(root)
	}
	b := builder{src: root, dst: dir, tests: *tests, commit: rev}
	if err := b.run(); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "dropin: wrote %d files of k8s.io/client-go (kubeclient %s) to %s\n", b.files, rev, dir)
	fmt.Printf("go mod edit -replace k8s.io/client-go=%s\n", dir)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "dropin:", err)
	os.Exit(1)
}
