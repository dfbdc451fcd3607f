// Command dynamic-create-update-delete-deployment does what
// create-update-delete-deployment does with the dynamic client: the
// Deployment is an unstructured map, read and changed with the unstructured
// helpers, so the same code works for any resource, custom ones included.
//
//	go run ./examples/dynamic-create-update-delete-deployment -kubeconfig ~/.kube/config
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/tools/clientcmd"
	"github.com/kubeclient/client-go/util/homedir"
	"github.com/kubeclient/client-go/util/retry"
)

func main() {
	defaultKubeconfig := ""
	if home := homedir.HomeDir(); home != "" {
		defaultKubeconfig = filepath.Join(home, ".kube", "config")
	}
	kubeconfig := flag.String("kubeconfig", defaultKubeconfig, "path to a kubeconfig file")
	namespace := flag.String("namespace", "default", "namespace to work in")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err == nil {
		var client dynamic.Interface
		if client, err = dynamic.NewForConfig(config); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err = lifecycle(ctx, client, *namespace, os.Stdout)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dynamic-create-update-delete-deployment:", err)
		os.Exit(1)
	}
}

var deploymentsResource = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

const deploymentName = "demo-deployment"

func newDeployment() *unstructured.Unstructured {
	labels := map[string]any{"app": "demo"}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": deploymentName},
		"spec": map[string]any{
			"replicas": int64(2),
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"containers": []any{
					map[string]any{"name": "web", "image": "nginx:1.27"},
				}},
			},
		},
	}}
}

// lifecycle creates the Deployment, scales it and changes its image with
// retries on conflict, lists Deployments and deletes it.
func lifecycle(ctx context.Context, client dynamic.Interface, namespace string, w io.Writer) error {
	deployments := client.Resource(deploymentsResource).Namespace(namespace)

	created, err := deployments.Create(ctx, newDeployment(), metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating deployment: %w", err)
	}
	fmt.Fprintf(w, "created deployment %s/%s\n", namespace, created.GetName())

	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest, err := deployments.Get(ctx, deploymentName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if err := unstructured.SetNestedField(latest.Object, int64(1), "spec", "replicas"); err != nil {
			return err
		}
		containers, found, err := unstructured.NestedSlice(latest.Object, "spec", "template", "spec", "containers")
		if err != nil || !found || len(containers) == 0 {
			return fmt.Errorf("deployment has no containers (found=%v): %v", found, err)
		}
		first, ok := containers[0].(map[string]any)
		if !ok {
			return fmt.Errorf("container 0 is a %T, not an object", containers[0])
		}
		if err := unstructured.SetNestedField(first, "nginx:1.28", "image"); err != nil {
			return err
		}
		if err := unstructured.SetNestedSlice(latest.Object, containers, "spec", "template", "spec", "containers"); err != nil {
			return err
		}
		_, err = deployments.Update(ctx, latest, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("updating deployment: %w", err)
	}
	fmt.Fprintln(w, "updated deployment: replicas=1 image=nginx:1.28")

	list, err := deployments.List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("listing deployments: %w", err)
	}
	for _, d := range list.Items {
		replicas, _, _ := unstructured.NestedInt64(d.Object, "spec", "replicas")
		fmt.Fprintf(w, "  %s (%d replicas)\n", d.GetName(), replicas)
	}

	if err := deployments.Delete(ctx, deploymentName, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("deleting deployment: %w", err)
	}
	fmt.Fprintln(w, "deleted deployment")
	return nil
}
