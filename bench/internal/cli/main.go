package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"

	"github.com/kubeclient/client-go/bench/internal/fixture"
	"github.com/kubeclient/client-go/bench/internal/harness"
)

// Main is a measuring program's main: it measures one workload of
// workloads with one of libs (chosen by -lib) and prints the result as
// one JSON line, or runs the fake server (-serve), or prints the table of
// a results file (-table).
func Main(libs map[string]harness.Lib, workloads []string) {
	var p harness.Params
	var libNames []string
	for name := range libs {
		libNames = append(libNames, name)
	}
	slices.Sort(libNames)
	lib := flag.String("lib", libNames[0], "library: "+strings.Join(libNames, " or "))
	flag.StringVar(&p.Workload, "workload", workloads[0], "workload: "+strings.Join(workloads, ", "))
	flag.StringVar(&p.Format, "format", "json", "wire format: json or protobuf")
	flag.StringVar(&p.Resource, "resource", "pods", "resource: pods, configmaps or widgets (the custom resource)")
	layout := flag.String("fixture", "grouped", "object layout: grouped (a ReplicaSet's pods on one node, equal specs) or spread (on different nodes)")
	flag.IntVar(&p.N, "n", 10000, "objects the server holds")
	flag.IntVar(&p.Events, "events", -1, "MODIFIED events after the sync (-1: n)")
	flag.IntVar(&p.Ops, "ops", 0, "calls for get and list, adds per producer for workqueue (0: the workload's default)")
	serve := flag.Bool("serve", false, "run the fake API server (started by the program itself)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the measured process (the whole workload) to this file")
	flag.StringVar(&harness.HeapProfile, "heapprofile", "", "informer workloads: write a heap profile with the cache full, after the sync, to this file")
	table := flag.String("table", "", "print the markdown table of the result lines in this file and exit")
	flag.Parse()
	var err error
	if p.Fixture, err = fixture.ParseLayout(*layout); err != nil {
		fatal(err)
	}
	if p.Events < 0 {
		p.Events = p.N
	}
	w, ok := harness.Workloads[p.Workload]
	if !ok || !slices.Contains(workloads, p.Workload) {
		fatal(fmt.Errorf("unknown -workload %q (this program runs %s)", p.Workload, strings.Join(workloads, ", ")))
	}
	if w.Resource != "" {
		p.Resource = w.Resource
	}
	if !w.EventStream {
		p.Events = 0
	}

	switch {
	case *table != "":
		if err := printTable(*table, os.Stdout); err != nil {
			fatal(err)
		}
		return
	case *serve:
		if err := runServer(p); err != nil {
			fatal(err)
		}
		return
	}

	if err := setWatchList(p.Workload == "watchlist"); err != nil {
		fatal(err)
	}
	l, ok := libs[*lib]
	if !ok {
		fatal(fmt.Errorf("unknown -lib %q (this program runs %s)", *lib, strings.Join(libNames, ", ")))
	}
	if w.NeedsServer {
		srv, err := startServer(p)
		if err != nil {
			fatal(err)
		}
		defer srv.stop()
		p.Host = srv.host
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	res := harness.Run(context.Background(), l, p)
	line, _ := json.Marshal(res)
	fmt.Println(string(line))
	if res.Error != "" {
		fmt.Fprintf(os.Stderr, "%s: %s %s: %s\n", os.Args[0], res.Lib, res.Workload, res.Error)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// setWatchList makes sure KUBE_FEATURE_WatchListClient says on, re-executing
// the process with it set if needed: both libraries read it once, lazily,
// but setting it before the process starts leaves no doubt.
func setWatchList(on bool) error {
	want := "false"
	if on {
		want = "true"
	}
	if os.Getenv("KUBE_FEATURE_WatchListClient") == want {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	env := append(os.Environ(), "KUBE_FEATURE_WatchListClient="+want)
	return syscall.Exec(self, os.Args, env)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, os.Args[0]+":", err)
	os.Exit(2)
}
