// Command local-up starts the integration control plane (etcd,
// kube-apiserver and kube-controller-manager, through testenv) for a
// person, prints how to reach it and keeps it running until interrupted. hack/local-up.sh builds and runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kubeclient/client-go/testenv"
)

func main() {
	dir := flag.String("dir", "", "working folder for data, certificates, logs and the kubeconfig (default: a new temporary folder, removed on exit)")
	noKCM := flag.Bool("no-controller-manager", false, "start no kube-controller-manager (as envtest)")
	flag.Parse()

	started := time.Now()
	cp, err := testenv.Start(context.Background(), testenv.Options{Dir: *dir, DisableControllerManager: *noKCM})
	if err != nil {
		fmt.Fprintf(os.Stderr, "local-up: %v\n", err)
		os.Exit(1)
	}
	defer cp.Stop()

	fmt.Printf(`control plane ready in %v
  server:      %s
  kubeconfig:  %s   (user %s, group system:masters)
  plain user:  bearer token %q (user %s, no role bindings)
  logs:        %s/{kube-apiserver,kube-controller-manager,etcd}.log

  export KUBECONFIG=%s

Press Ctrl-C to stop.
`, time.Since(started).Round(time.Millisecond), cp.Host, cp.KubeconfigPath, testenv.AdminUser,
		testenv.UnprivilegedToken, testenv.UnprivilegedUser, cp.Dir, cp.KubeconfigPath)

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	<-signals
	fmt.Println("\nstopping")
}
