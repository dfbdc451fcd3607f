// Command record starts a real control plane (etcd, kube-apiserver and
// kube-controller-manager, through package testenv), creates objects as a
// cluster would hold them, and writes the server's responses byte for byte
// into bench/testdata: GET, LIST, metadata-only LIST and watch streams of
// Pods, ConfigMaps and a custom resource, in JSON and protobuf.
//
// The Pods come from two Deployments, so kube-controller-manager owns their
// metadata (ownerReferences, pod-template-hash) and writes managedFields; a
// status patch under the field manager "kubelet" then fills the status as a
// kubelet would, so each Pod carries managedFields from two managers.
//
// The benchmark (package bench/internal/fixture) turns these recordings into
// N variants; run ./run.sh here to record again.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/kubeclient/client-go/testenv"
)

func main() {
	out := flag.String("out", "../testdata", "folder the recordings go to")
	bins := flag.String("binaries", defaultBinaries(), "folder holding etcd, kube-apiserver and kube-controller-manager (never built here)")
	flag.Parse()

	for _, b := range []string{"etcd", "kube-apiserver", "kube-controller-manager"} {
		if _, err := os.Stat(filepath.Join(*bins, b)); err != nil {
			log.Fatalf("record: %s is missing in %s; build the control plane first (go run github.com/kubeclient/client-go/testenv/cmd/testenv-binaries)", b, *bins)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env, err := testenv.Start(ctx, testenv.Options{BinariesDir: *bins})
	if err != nil {
		log.Fatalf("record: starting the control plane: %v", err)
	}
	defer env.Stop()

	r, err := newRecorder(env, *out)
	if err != nil {
		log.Fatal(err)
	}
	if err := r.populate(ctx); err != nil {
		log.Printf("server logs:\n%s", env.LogTail(40))
		log.Fatal(err)
	}
	if err := r.recordAll(ctx); err != nil {
		log.Fatal(err)
	}
	if err := r.writeIndex(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("recorded %d responses into %s\n", len(r.index), *out)
}

func defaultBinaries() string {
	if d := os.Getenv("KUBECLIENT_CONTROLPLANE_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "kubeclient", "controlplane", "kube-apiserver-v1.37.2_etcd-v3.7.0_linux-amd64_stamp-v2")
}
