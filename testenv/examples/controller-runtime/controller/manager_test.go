package controller_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/kubeclient/client-go/testenv"
	"github.com/kubeclient/client-go/testenv/examples/controller-runtime/controller"
)

// env is the control plane of the package's tests: etcd, kube-apiserver and
// kube-controller-manager, started once by TestMain.
var env *testenv.Env

func TestMain(m *testing.M) {
	// controller-runtime's logs; go test shows them when a test fails.
	ctrl.SetLogger(zap.New(zap.UseDevMode(true)))
	testenv.Main(m, &env, testenv.Options{})
}

// restConfig is testenv's admin identity as client-go's *rest.Config, the
// type controller-runtime takes, read from the kubeconfig file testenv
// writes.
func restConfig(t *testing.T) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", env.KubeconfigPath)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startManager runs a manager with the reconciler, watching namespace ns,
// until the test ends, and returns a client that reads from the API server
// (not from the manager's cache).
func startManager(t *testing.T, ns string) client.Client {
	t.Helper()
	cfg := restConfig(t)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Metrics: metricsserver.Options{BindAddress: "0"}, // no metrics listener
		Cache:   cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}},
		// Every test registers a controller; names need not be unique.
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := (&controller.Reconciler{}).SetupWithManager(mgr, "parents"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func parent(ns, name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{controller.ParentLabel: "true"}},
		Data:       map[string]string{"size": "3"},
	}
}

// eventually polls cond against the API server until it holds or a minute
// has passed.
func eventually(t *testing.T, what string, cond func(ctx context.Context) (bool, error)) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, time.Minute, true, cond); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestOwnedChildIsGarbageCollected: the reconciler creates the child with a
// controller reference; deleting the parent leaves the child to
// kube-controller-manager's garbage collector, which removes it.
func TestOwnedChildIsGarbageCollected(t *testing.T) {
	ctx := context.Background()
	ns := env.Namespace(t)
	c := startManager(t, ns)

	if err := c.Create(ctx, parent(ns, "web")); err != nil {
		t.Fatal(err)
	}
	child := &corev1.ConfigMap{}
	eventually(t, "the reconciler creates the child", func(ctx context.Context) (bool, error) {
		err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: controller.ChildName("web")}, child)
		return err == nil, client.IgnoreNotFound(err)
	})
	if refs := child.OwnerReferences; len(refs) != 1 || refs[0].Name != "web" || !ptr.Deref(refs[0].Controller, false) {
		t.Fatalf("child owner references %+v, want the parent as controller", refs)
	}

	if err := c.Delete(ctx, parent(ns, "web"), client.PropagationPolicy(metav1.DeletePropagationBackground)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the garbage collector deletes the child", func(ctx context.Context) (bool, error) {
		err := c.Get(ctx, client.ObjectKeyFromObject(child), &corev1.ConfigMap{})
		return apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	})
}

// TestNamespaceDeletionCompletes: a namespace holding the reconciler's
// objects is deleted to the end by kube-controller-manager's namespace
// controller (on envtest alone it stays Terminating).
func TestNamespaceDeletionCompletes(t *testing.T) {
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "recipe-"}}
	cfg := restConfig(t)
	direct, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := direct.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	c := startManager(t, ns.Name)
	if err := c.Create(ctx, parent(ns.Name, "db")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the reconciler creates the child", func(ctx context.Context) (bool, error) {
		err := c.Get(ctx, client.ObjectKey{Namespace: ns.Name, Name: controller.ChildName("db")}, &corev1.ConfigMap{})
		return err == nil, client.IgnoreNotFound(err)
	})

	if err := c.Delete(ctx, ns); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the namespace is gone", func(ctx context.Context) (bool, error) {
		err := c.Get(ctx, client.ObjectKeyFromObject(ns), &corev1.Namespace{})
		return apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	})
}
