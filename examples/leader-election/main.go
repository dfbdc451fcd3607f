// Command leader-election runs one candidate of a leader election on a
// coordination.k8s.io Lease. Start it several times with different -id
// values: one leads and does the work, the others wait, and when the leader
// exits (Ctrl-C releases the lease) another takes over.
//
//	go run ./examples/leader-election -kubeconfig ~/.kube/config -id one
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/tools/clientcmd"
	"github.com/kubeclient/client-go/tools/leaderelection"
	"github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
	"github.com/kubeclient/client-go/util/homedir"
)

func main() {
	defaultKubeconfig := ""
	if home := homedir.HomeDir(); home != "" {
		defaultKubeconfig = filepath.Join(home, ".kube", "config")
	}
	kubeconfig := flag.String("kubeconfig", defaultKubeconfig, "path to a kubeconfig file")
	id := flag.String("id", "", "this candidate's identity (required, unique)")
	lease := flag.String("lease", "example-lock", "name of the Lease")
	namespace := flag.String("namespace", "default", "namespace of the Lease")
	flag.Parse()
	if *id == "" {
		fmt.Fprintln(os.Stderr, "leader-election: -id is required")
		os.Exit(2)
	}

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "leader-election:", err)
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, "leader-election:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	timing := timing{lease: 15 * time.Second, renew: 10 * time.Second, retry: 2 * time.Second}
	if err := campaign(ctx, client, *namespace, *lease, *id, timing, os.Stdout, work); err != nil {
		fmt.Fprintln(os.Stderr, "leader-election:", err)
		os.Exit(1)
	}
}

// work is what the leader does: here, report that it is alive until it
// loses the lease.
func work(ctx context.Context, out io.Writer) {
	ticker := time.NewTicker(5 * time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			fmt.Fprintln(out, "leader: still working")
		}
	}
}

// timing holds the election's durations.
type timing struct{ lease, renew, retry time.Duration }

// campaign competes for the Lease namespace/name as id until ctx is done,
// calling lead while it holds the lease. The lease is released on return.
func campaign(ctx context.Context, client kubernetes.Interface, namespace, name, id string, t timing, out io.Writer, lead func(context.Context, io.Writer)) error {
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Name: name, Namespace: namespace},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: id},
	}
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		ReleaseOnCancel: true,
		LeaseDuration:   t.lease,
		RenewDeadline:   t.renew,
		RetryPeriod:     t.retry,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				fmt.Fprintf(out, "%s: started leading\n", id)
				lead(ctx, out)
			},
			OnStoppedLeading: func() { fmt.Fprintf(out, "%s: stopped leading\n", id) },
			OnNewLeader: func(current string) {
				if current != id {
					fmt.Fprintf(out, "%s: %s is the leader\n", id, current)
				}
			},
		},
	})
	if err != nil {
		return err
	}
	elector.Run(ctx)
	return nil
}
