// Command sharded-controller is a ConfigMap controller whose replicas share
// the work: start it several times (with different -identity values, as
// the pods of a Deployment would have) and each replica caches and
// reconciles about its share of the namespace's ConfigMaps, stamping each
// with its name. Stop one and the others take its share over; start one
// more and it takes its share. On a kube-apiserver with the
// ShardedListAndWatch feature gate each replica receives only its share;
// on any other it filters on its side and logs that once.
//
//	go run ./examples/sharded-controller -kubeconfig ~/.kube/config -identity a &
//	go run ./examples/sharded-controller -kubeconfig ~/.kube/config -identity b &
//
// Compared with a single-leader controller, the changes are the
// tools/sharding Controller in place of the informer, the workqueue and
// the leader election: see newController.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/tools/clientcmd"
	"github.com/kubeclient/client-go/tools/sharding"
)

// stampAnnotation records which replica reconciled a ConfigMap last.
const stampAnnotation = "example.kubeclient.io/reconciled-by"

func main() {
	kubeconfig := flag.String("kubeconfig", os.Getenv("KUBECONFIG"), "path to a kubeconfig file")
	namespace := flag.String("namespace", "default", "namespace of the ConfigMaps and of the ring's Leases")
	identity := flag.String("identity", "", "this replica's name, unique in the ring (a pod name); default: the host name")
	flag.Parse()
	if *identity == "" {
		host, err := os.Hostname()
		if err != nil {
			fmt.Fprintln(os.Stderr, "sharded-controller: -identity is required:", err)
			os.Exit(2)
		}
		*identity = host
	}

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharded-controller:", err)
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharded-controller:", err)
		os.Exit(1)
	}
	ctrl, err := newController(client, *namespace, *identity)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharded-controller:", err)
		os.Exit(1)
	}

	// On SIGINT or SIGTERM Run stops the work, deletes the replica's Lease
	// and returns: the others take its share over within seconds.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctrl.Run(ctx)
}

// newController builds the sharded controller of one replica.
func newController(client kubernetes.Interface, namespace, identity string) (*sharding.Controller, error) {
	configMaps := client.CoreV1().ConfigMaps(namespace)
	return sharding.NewController(sharding.ControllerConfig{
		Member: sharding.MemberConfig{
			Client:    client.CoordinationV1(),
			Namespace: namespace,
			Ring:      "sharded-controller",
			Identity:  identity,
			OnShardChange: func(ctx context.Context, s sharding.Shard) {
				klog.FromContext(ctx).Info("Working on a new share", "slots", len(s.Slots), "of", s.Total)
			},
		},
		// The whole resource: the controller restricts it to the replica's
		// share.
		ListerWatcher: &cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				return configMaps.List(ctx, o)
			},
			WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
				return configMaps.Watch(ctx, o)
			},
		},
		ObjectType: &corev1.ConfigMap{},
		Reconcile: func(ctx context.Context, key string, obj runtime.Object) error {
			return reconcile(ctx, configMaps, identity, key, obj)
		},
	})
}

// reconcile stamps a ConfigMap with the replica's name.
func reconcile(ctx context.Context, configMaps interface {
	Update(context.Context, *corev1.ConfigMap, metav1.UpdateOptions) (*corev1.ConfigMap, error)
}, identity, key string, obj runtime.Object) error {
	if obj == nil {
		klog.FromContext(ctx).Info("ConfigMap gone", "key", key)
		return nil
	}
	cm := obj.(*corev1.ConfigMap)
	if cm.Annotations[stampAnnotation] == identity {
		return nil
	}
	cm = cm.DeepCopy()
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[stampAnnotation] = identity
	_, err := configMaps.Update(ctx, cm, metav1.UpdateOptions{})
	return err
}
