package testenv

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	corev1client "github.com/kubeclient/client-go/kubernetes/typed/core/v1"
)

// notDNSLabel matches the characters a namespace name may not hold.
var notDNSLabel = regexp.MustCompile(`[^a-z0-9-]+`)

// Namespace creates a namespace for t, named after the test with a random
// suffix, and deletes it when t ends (kube-controller-manager then removes
// its contents; the cleanup does not wait for that). It fails t if the
// namespace cannot be created.
func (env *Env) Namespace(t testing.TB) string {
	t.Helper()
	client, err := corev1client.NewForConfig(env.AdminConfig())
	if err != nil {
		t.Fatalf("testenv: core client: %v", err)
	}
	prefix := strings.Trim(notDNSLabel.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
	if len(prefix) > 40 {
		prefix = strings.TrimRight(prefix[:40], "-")
	}
	if prefix == "" {
		prefix = "test"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ns, err := client.Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("testenv: creating a namespace for %s: %v", t.Name(), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := client.Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}); err != nil {
			t.Logf("testenv: deleting namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}

// LogsOnFailure prints the tail of the servers' logs when t fails.
func (env *Env) LogsOnFailure(t testing.TB) {
	t.Helper()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server logs:\n%s", env.LogTail(30))
		}
	})
}
