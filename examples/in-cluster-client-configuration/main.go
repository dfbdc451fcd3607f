// Command in-cluster-client-configuration shows a program running in a pod:
// rest.InClusterConfig reads the service account token and CA the kubelet
// mounts, and the program reports the cluster's pod count every few seconds.
//
// Build it into an image and run it in a pod whose service account may list
// pods; outside a cluster it exits with rest.ErrNotInCluster.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
)

func main() {
	every := flag.Duration("every", 10*time.Second, "how often to report")
	flag.Parse()

	config, err := rest.InClusterConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "in-cluster:", err)
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, "in-cluster:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ticker := time.NewTicker(*every)
	defer ticker.Stop()
	for {
		if err := countPods(ctx, client, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "in-cluster:", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// countPods writes the number of pods in all namespaces and how many of them
// run.
func countPods(ctx context.Context, client kubernetes.Interface, w io.Writer) error {
	pods, err := client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("listing pods: %w", err)
	}
	running := 0
	for _, p := range pods.Items {
		if p.Status.Phase == "Running" {
			running++
		}
	}
	fmt.Fprintf(w, "%d pods in the cluster, %d running\n", len(pods.Items), running)
	return nil
}
