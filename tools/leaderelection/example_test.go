package leaderelection_test

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/fake"
	"github.com/kubeclient/client-go/tools/leaderelection"
	"github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
)

// lead runs one candidate for the Lease default/example-controller until
// it has led once: its work prints who holds the Lease, then ends its
// term by cancelling the context. ReleaseOnCancel clears the Lease, so
// the next candidate takes it over at once.
func lead(clientset kubernetes.Interface, identity string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Name: "example-controller", Namespace: "default"},
		Client:     clientset.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: identity},
	}
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   15 * time.Second,
		RenewDeadline:   10 * time.Second,
		RetryPeriod:     2 * time.Second,
		ReleaseOnCancel: true,
		Name:            "example-controller",
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				// The controller's work runs here, until ctx ends.
				lease, err := clientset.CoordinationV1().Leases("default").Get(ctx, "example-controller", metav1.GetOptions{})
				if err == nil {
					fmt.Println(identity, "leads; the Lease names", *lease.Spec.HolderIdentity)
				}
				cancel()
			},
			OnStoppedLeading: func() {
				fmt.Println(identity, "stopped leading")
			},
		},
	})
}

// Leader election on a Lease: one replica of a controller works at a time.
// Here two candidates take turns on the fake clientset.
func ExampleRunOrDie() {
	clientset := fake.NewClientset()
	lead(clientset, "replica-1")
	lead(clientset, "replica-2")

	lease, err := clientset.CoordinationV1().Leases("default").Get(context.Background(), "example-controller", metav1.GetOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("holder after release: %q, transitions: %d\n", *lease.Spec.HolderIdentity, *lease.Spec.LeaseTransitions)
	// Output:
	// replica-1 leads; the Lease names replica-1
	// replica-1 stopped leading
	// replica-2 leads; the Lease names replica-2
	// replica-2 stopped leading
	// holder after release: "", transitions: 1
}
