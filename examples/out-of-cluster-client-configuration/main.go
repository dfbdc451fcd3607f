// Command out-of-cluster-client-configuration shows a program running
// outside the cluster: it loads a kubeconfig, builds a typed clientset and
// reports the pods of a namespace, then looks one pod up by name.
//
//	go run ./examples/out-of-cluster-client-configuration -kubeconfig ~/.kube/config -namespace default -pod web
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/tools/clientcmd"
	"github.com/kubeclient/client-go/util/homedir"
)

func main() {
	defaultKubeconfig := ""
	if home := homedir.HomeDir(); home != "" {
		defaultKubeconfig = filepath.Join(home, ".kube", "config")
	}
	kubeconfig := flag.String("kubeconfig", defaultKubeconfig, "path to a kubeconfig file")
	namespace := flag.String("namespace", "default", "namespace to look in")
	pod := flag.String("pod", "", "name of a pod to look up (optional)")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "out-of-cluster:", err)
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, "out-of-cluster:", err)
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := report(ctx, client, *namespace, *pod, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "out-of-cluster:", err)
		os.Exit(1)
	}
}

// report writes how many pods namespace holds and, when pod is set, whether
// that pod exists and in which phase it is.
func report(ctx context.Context, client kubernetes.Interface, namespace, pod string, w io.Writer) error {
	pods, err := client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("listing pods in %s: %w", namespace, err)
	}
	fmt.Fprintf(w, "%d pods in namespace %s\n", len(pods.Items), namespace)
	if pod == "" {
		return nil
	}
	found, err := client.CoreV1().Pods(namespace).Get(ctx, pod, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		fmt.Fprintf(w, "pod %s/%s not found\n", namespace, pod)
	case err != nil:
		return fmt.Errorf("reading pod %s/%s: %w", namespace, pod, err)
	default:
		fmt.Fprintf(w, "pod %s/%s is %s\n", namespace, pod, found.Status.Phase)
	}
	return nil
}
