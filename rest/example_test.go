package rest_test

import (
	"errors"
	"fmt"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/tools/clientcmd"
)

// Inside a Pod, InClusterConfig reads the service account token and CA
// that Kubernetes mounts and the API server address from the environment.
// Outside a cluster it fails with ErrNotInCluster, and a program can fall
// back to the user's kubeconfig. (No output: it depends on where it runs.)
func ExampleInClusterConfig() {
	config, err := rest.InClusterConfig()
	if errors.Is(err, rest.ErrNotInCluster) {
		config, err = clientcmd.BuildConfigFromFlags("", clientcmd.RecommendedHomeFile)
	}
	if err != nil {
		fmt.Println("no configuration:", err)
		return
	}
	// Every client is built from the config.
	clientset, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = clientset
}
