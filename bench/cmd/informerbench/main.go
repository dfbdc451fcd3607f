// Command informerbench measures one workload with one library and prints
// the result as one JSON line; bench/run.sh runs it in rounds, alternating
// the libraries, and turns the lines into a table (informerbench -table).
//
// Each measurement is a process of its own, so heaps do not carry over. The
// fake API server runs as a child process (informerbench -serve), so its CPU
// and memory are not counted; it encodes everything before it reports
// ready.
//
//	informerbench -lib=client-go|kubeclient -workload=informer -n=10000 -format=json
//	informerbench -table results.jsonl
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/kubeclient/client-go/bench/internal/fixture"
	"github.com/kubeclient/client-go/bench/internal/harness"
	"github.com/kubeclient/client-go/bench/internal/libs/clientgo"
	"github.com/kubeclient/client-go/bench/internal/libs/kubeclient"
)

func main() {
	var p harness.Params
	lib := flag.String("lib", "kubeclient", "library: client-go or kubeclient")
	flag.StringVar(&p.Workload, "workload", "informer", "workload: "+strings.Join(harness.WorkloadNames(), ", "))
	flag.StringVar(&p.Format, "format", "json", "wire format: json or protobuf")
	flag.StringVar(&p.Resource, "resource", "pods", "resource: pods, configmaps or widgets (the custom resource)")
	layout := flag.String("fixture", "grouped", "object layout: grouped (a ReplicaSet's pods on one node, equal specs) or spread (on different nodes)")
	flag.IntVar(&p.N, "n", 10000, "objects the server holds")
	flag.IntVar(&p.Events, "events", -1, "MODIFIED events after the sync (-1: n)")
	flag.IntVar(&p.Ops, "ops", 0, "calls for get and list, adds per producer for workqueue (0: the workload's default)")
	serve := flag.Bool("serve", false, "run the fake API server (started by informerbench itself)")
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
	if p.Workload == "relist" || p.Workload == "get" || p.Workload == "list" || strings.HasPrefix(p.Workload, "workqueue") {
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
	var l harness.Lib
	switch *lib {
	case "client-go":
		l = clientgo.Lib{}
	case "kubeclient":
		l = kubeclient.Lib{}
	default:
		fatal(fmt.Errorf("unknown -lib %q", *lib))
	}
	w, ok := harness.Workloads[p.Workload]
	if !ok {
		fatal(fmt.Errorf("unknown -workload %q", p.Workload))
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
		fmt.Fprintf(os.Stderr, "informerbench: %s %s: %s\n", res.Lib, res.Workload, res.Error)
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
	fmt.Fprintln(os.Stderr, "informerbench:", err)
	os.Exit(2)
}
