// Package coordination tests the library's coordination helpers against a
// real kube-apiserver: leader election among several electors on one
// coordination.k8s.io/v1 Lease (mutual exclusion, OnNewLeader, hand-over on
// ReleaseOnCancel, take-over after a leader crashes or loses the server),
// core/v1 events written through tools/record (counting of repeats and
// aggregation of similar events) and events.k8s.io/v1 events written through
// tools/events (series of isomorphic events).
package coordination

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/test/integration/framework"
)

var controlPlane *framework.ControlPlane

func TestMain(m *testing.M) { framework.RunMain(m, &controlPlane) }

// waitTimeout bounds every poll for the server to show a result.
const waitTimeout = 30 * time.Second

// testTimeout bounds each test as a whole.
const testTimeout = 2 * time.Minute

// newClientset returns an admin clientset built from cfg, or from a fresh
// admin configuration when cfg is nil.
func newClientset(t *testing.T, cfg *rest.Config) *kubernetes.Clientset {
	t.Helper()
	if cfg == nil {
		cfg = controlPlane.AdminConfig()
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	return cs
}

// testContext returns a context that ends after testTimeout or with t.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// createConfigMap creates a ConfigMap named name in ns to hang events on.
func createConfigMap(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string) *corev1.ConfigMap {
	t.Helper()
	cm, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Data:       map[string]string{"k": "v"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating ConfigMap %s/%s: %v", ns, name, err)
	}
	if cm.UID == "" {
		t.Fatalf("created ConfigMap %s/%s has no UID", ns, name)
	}
	return cm
}
