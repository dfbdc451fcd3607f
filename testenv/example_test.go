package testenv_test

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/testenv"
)

// Start a control plane (etcd, kube-apiserver, kube-controller-manager),
// use it with kubeclient, and stop it. The first Start on a machine builds
// the binaries, which takes minutes; later ones start in seconds. In a
// test package, testenv.Main(m, &env, opts) in TestMain does the same
// around the tests and env.Namespace(t) gives each test a namespace.
//
// The example has no output, so go test compiles it but does not run it.
func ExampleStart() {
	ctx := context.Background()
	env, err := testenv.Start(ctx, testenv.Options{})
	if err != nil {
		fmt.Println("starting the control plane:", err)
		return
	}
	defer env.Stop()

	clientset := kubernetes.NewForConfigOrDie(env.AdminConfig())
	ns, err := clientset.CoreV1().Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "example-"}}, metav1.CreateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}

	// kube-controller-manager finishes the deletion of a namespace (with
	// envtest the namespace would stay Terminating for ever).
	if err := clientset.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := clientset.CoreV1().Namespaces().Get(ctx, ns.Name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	fmt.Println("namespace gone:", err == nil)
}
