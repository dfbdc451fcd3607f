// Command testenv-binaries builds (once per version) the etcd,
// kube-apiserver and kube-controller-manager programs testenv runs, and
// prints the folder that holds them. Running it ahead of the tests, for
// example in a CI cache step, keeps the first test run from paying for the
// build:
//
//	go run github.com/kubeclient/client-go/testenv/cmd/testenv-binaries
//
// With -print-versions it prints the versions it builds and exits.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/kubeclient/client-go/testenv/binaries"
)

func main() {
	versions := flag.Bool("print-versions", false, "print the Kubernetes and etcd versions and exit")
	flag.Parse()
	if *versions {
		v, err := binaries.EmbeddedVersions()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("kubernetes %s\netcd %s\n", v.Kubernetes, v.Etcd)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir, err := binaries.Build(ctx, os.Stderr, binaries.All...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(dir)
}
