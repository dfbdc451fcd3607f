package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	typedcorev1 "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
	"github.com/kubeclient/client-go/tools/clientcmd"
	"github.com/kubeclient/client-go/tools/leaderelection"
	"github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
	"github.com/kubeclient/client-go/tools/record"
)

// localKubeconfig is where hack/demo.sh asks the local control plane to
// write its admin kubeconfig, relative to the repository root.
const localKubeconfig = "_output/local-up/admin.kubeconfig"

func main() {
	kubeconfig := flag.String("kubeconfig", defaultKubeconfig(), "path to a kubeconfig file (default: $KUBECONFIG, else the local control plane's "+localKubeconfig+", else ~/.kube/config)")
	namespace := flag.String("namespace", "kubeclient-demo", "namespace to work in; created when missing")
	duration := flag.Duration("duration", 2*time.Minute, "longest the demo may run; the scenario must finish within it")
	flag.Parse()

	if err := run(*kubeconfig, *namespace, *duration, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo-controller:", err)
		os.Exit(1)
	}
}

func defaultKubeconfig() string {
	if env := os.Getenv("KUBECONFIG"); env != "" {
		return env
	}
	if _, err := os.Stat(localKubeconfig); err == nil {
		return localKubeconfig
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".kube", "config")
	}
	return ""
}

func run(kubeconfig, namespace string, duration time.Duration, out io.Writer) error {
	started := time.Now()
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("loading kubeconfig %q: %w", kubeconfig, err)
	}
	config.UserAgent = "kubeclient-demo-controller"
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeoutCause(ctx, duration, fmt.Errorf("demo did not finish within -duration=%v", duration))
	defer cancel()

	fmt.Fprintf(out, "demo: server %s, namespace %s\n", config.Host, namespace)
	return runDemo(ctx, cancel, client, namespace, started, out)
}

// runDemo runs the controller under leader election and drives the scenario
// until it finishes; cancel ends ctx, which releases the lease.
func runDemo(ctx context.Context, cancel context.CancelFunc, client kubernetes.Interface, namespace string, started time.Time, out io.Writer) error {
	if err := ensureNamespace(ctx, client, namespace, out); err != nil {
		return err
	}

	broadcaster := record.NewBroadcaster()
	defer broadcaster.Shutdown()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events(namespace)})
	recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "demo-controller"})

	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(namespace))
	controller, err := NewController(client, factory.Core().V1().ConfigMaps(), recorder, out)
	if err != nil {
		return err
	}

	host, _ := os.Hostname()
	identity := host + "_" + strconv.Itoa(os.Getpid())
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Name: "demo-controller", Namespace: namespace},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: identity},
	}

	// The elector runs in its own goroutine; when it wins, the callback hands
	// the leadership context to this goroutine, which owns the informers, the
	// workers and the scenario, and cancels ctx when the scenario is over so
	// the elector releases the lease.
	leadership := make(chan context.Context, 1)
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		Name:            "demo-controller",
		LeaseDuration:   15 * time.Second,
		RenewDeadline:   10 * time.Second,
		RetryPeriod:     2 * time.Second,
		ReleaseOnCancel: true,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(leaderCtx context.Context) { leadership <- leaderCtx },
			OnStoppedLeading: func() {
				fmt.Fprintf(out, "leader: %s released lease %s/demo-controller\n", identity, namespace)
			},
			OnNewLeader: func(current string) {
				if current != identity {
					fmt.Fprintf(out, "leader: waiting, lease held by %s\n", current)
				}
			},
		},
	})
	if err != nil {
		return err
	}
	electorDone := make(chan struct{})
	go func() {
		defer close(electorDone)
		elector.Run(ctx)
	}()

	var scenarioErr error
	select {
	case leaderCtx := <-leadership:
		fmt.Fprintf(out, "leader: %s holds lease %s/demo-controller\n", identity, namespace)
		factory.Start(leaderCtx.Done())
		workers := make(chan error, 1)
		go func() { workers <- controller.Run(leaderCtx, 2) }()
		scenarioErr = runScenario(leaderCtx, client, namespace, out)
		cancel() // the scenario is over: stop the workers and give up the lease
		if err := <-workers; err != nil && scenarioErr == nil {
			scenarioErr = err
		}
		factory.Shutdown()
	case <-electorDone:
		scenarioErr = fmt.Errorf("never became leader: %w", context.Cause(ctx))
	}
	<-electorDone

	stats := controller.Stats()
	fmt.Fprintf(out, "summary: %d objects reconciled, %d no-op syncs, %d retries, %d dropped, %v\n",
		stats.Reconciled, stats.Unchanged, stats.Retries, stats.Dropped, time.Since(started).Round(time.Millisecond))
	return scenarioErr
}

func ensureNamespace(ctx context.Context, client kubernetes.Interface, name string, out io.Writer) error {
	_, err := client.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
	if err == nil {
		return nil
	}
	if !apierrors.IsNotFound(err) {
		return fmt.Errorf("reading namespace %s: %w", name, err)
	}
	_, err = client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", name, err)
	}
	fmt.Fprintf(out, "demo: created namespace %s\n", name)
	return nil
}
