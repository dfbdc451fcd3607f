// Command list-namespaces lists the namespaces of a cluster with a bare
// rest.RESTClient: the smallest program that exercises configuration
// (tools/clientcmd), the transport chain and the REST client together.
//
//	go run ./examples/list-namespaces -kubeconfig ~/.kube/config
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/tools/clientcmd"
	"github.com/kubeclient/client-go/util/homedir"
)

func main() {
	defaultKubeconfig := ""
	if home := homedir.HomeDir(); home != "" {
		defaultKubeconfig = filepath.Join(home, ".kube", "config")
	}
	kubeconfig := flag.String("kubeconfig", defaultKubeconfig, "path to a kubeconfig file")
	flag.Parse()

	if err := run(*kubeconfig); err != nil {
		fmt.Fprintln(os.Stderr, "list-namespaces:", err)
		os.Exit(1)
	}
}

func run(kubeconfig string) error {
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}

	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		return err
	}
	config.GroupVersion = &schema.GroupVersion{Version: "v1"}
	config.APIPath = "/api"
	config.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()

	client, err := rest.RESTClientFor(config)
	if err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var namespaces corev1.NamespaceList
	if err := client.Get().Resource("namespaces").Do(ctx).Into(&namespaces); err != nil {
		return err
	}
	for _, ns := range namespaces.Items {
		fmt.Printf("%s\t%s\n", ns.Name, ns.Status.Phase)
	}
	return nil
}
