// Package envtestassets runs controller-runtime's own envtest on the
// kube-apiserver and etcd that testenv builds, through KUBEBUILDER_ASSETS:
// for a suite that keeps envtest and only wants its binaries without
// setup-envtest.
package envtestassets

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/kubeclient/client-go/testenv/binaries"
	"github.com/kubeclient/client-go/testenv/examples/controller-runtime/controller"
)

var cfg *rest.Config

func TestMain(m *testing.M) {
	ctrl.SetLogger(zap.New(zap.UseDevMode(true)))
	if err := useTestenvBinaries(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	te := &envtest.Environment{}
	var err error
	if cfg, err = te.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "envtest:", err)
		os.Exit(1)
	}
	code := m.Run()
	if err := te.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "envtest:", err)
	}
	os.Exit(code)
}

// useTestenvBinaries points KUBEBUILDER_ASSETS, when it is unset, at the
// folder where testenv keeps (and on first use builds) etcd and
// kube-apiserver. From a shell the same is
//
//	export KUBEBUILDER_ASSETS=$(go run github.com/kubeclient/client-go/testenv/cmd/testenv-binaries)
func useTestenvBinaries() error {
	if os.Getenv("KUBEBUILDER_ASSETS") != "" {
		return nil
	}
	paths, err := binaries.Find(context.Background(), os.Stderr, binaries.Etcd, binaries.KubeAPIServer)
	if err != nil {
		return err
	}
	dir := filepath.Dir(paths[binaries.KubeAPIServer])
	if filepath.Dir(paths[binaries.Etcd]) != dir {
		return fmt.Errorf("etcd (%s) and kube-apiserver (%s) are in different folders; KUBEBUILDER_ASSETS names one",
			paths[binaries.Etcd], paths[binaries.KubeAPIServer])
	}
	return os.Setenv("KUBEBUILDER_ASSETS", dir)
}

// TestEnvtestServesTestenvBuild: envtest's kube-apiserver is the release
// testenv builds, and the recipe's reconciler runs on it.
func TestEnvtestServesTestenvBuild(t *testing.T) {
	v, err := discovery.NewDiscoveryClientForConfigOrDie(cfg).ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	want, err := binaries.EmbeddedVersions()
	if err != nil {
		t.Fatal(err)
	}
	if v.GitVersion != want.Kubernetes {
		t.Errorf("kube-apiserver %s, want testenv's %s", v.GitVersion, want.Kubernetes)
	}

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Metrics:    metricsserver.Options{BindAddress: "0"},
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
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	}()

	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "api", Labels: map[string]string{controller.ParentLabel: "true"}},
	}
	if err := c.Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: controller.ChildName("api")}, &corev1.ConfigMap{})
		return err == nil, client.IgnoreNotFound(err)
	})
	if err != nil {
		t.Fatalf("no child on envtest: %v", err)
	}
}
