// Command create-update-delete-deployment walks a Deployment through its
// life with the typed clientset: create, update with retry on conflict,
// list, delete.
//
//	go run ./examples/create-update-delete-deployment -kubeconfig ~/.kube/config
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
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
		var client kubernetes.Interface
		if client, err = kubernetes.NewForConfig(config); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err = lifecycle(ctx, client, *namespace, os.Stdout)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "create-update-delete-deployment:", err)
		os.Exit(1)
	}
}

const deploymentName = "demo-deployment"

// newDeployment is a two-replica web server Deployment.
func newDeployment() *appsv1.Deployment {
	replicas := int32(2)
	labels := map[string]string{"app": "demo"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: deploymentName},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:  "web",
					Image: "nginx:1.27",
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
				}}},
			},
		},
	}
}

// lifecycle creates the Deployment, scales it to one replica and changes its
// image (retrying on conflicts, re-reading the latest version each time),
// lists Deployments and deletes it again.
func lifecycle(ctx context.Context, client kubernetes.Interface, namespace string, w io.Writer) error {
	deployments := client.AppsV1().Deployments(namespace)

	created, err := deployments.Create(ctx, newDeployment(), metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating deployment: %w", err)
	}
	fmt.Fprintf(w, "created deployment %s/%s\n", namespace, created.Name)

	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest, err := deployments.Get(ctx, deploymentName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		one := int32(1)
		latest.Spec.Replicas = &one
		latest.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
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
		fmt.Fprintf(w, "  %s (%d replicas)\n", d.Name, *d.Spec.Replicas)
	}

	foreground := metav1.DeletePropagationForeground
	if err := deployments.Delete(ctx, deploymentName, metav1.DeleteOptions{PropagationPolicy: &foreground}); err != nil {
		return fmt.Errorf("deleting deployment: %w", err)
	}
	fmt.Fprintln(w, "deleted deployment")
	return nil
}
