// Package controllermanager tests what kube-controller-manager, which
// testenv runs and envtest does not, does for a client: namespace deletion
// completes, the garbage collector deletes dependents in background and
// foreground mode and leaves them on orphan deletion, a Deployment rolls out
// a ReplicaSet whose Pods stay Pending (no scheduler or kubelet runs), a Job
// creates its Pod, and the token controller fills service account token
// Secrets.
package controllermanager

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) { testenv.Main(m, &env, testenv.Options{}) }

// waitTimeout bounds every wait for a controller. The controllers act
// within a second when idle; a shared 2-core machine under -race is slower.
const waitTimeout = 90 * time.Second

func newClientset(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	env.LogsOnFailure(t)
	cs, err := kubernetes.NewForConfig(env.AdminConfig())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// eventually polls cond every 100ms until it returns true or waitTimeout
// passes; it fails t with what with the last error cond reported.
func eventually(t *testing.T, what string, cond func(ctx context.Context) (bool, error)) {
	t.Helper()
	var last error
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, waitTimeout, true,
		func(ctx context.Context) (bool, error) {
			ok, err := cond(ctx)
			last = err
			return ok && err == nil, nil
		})
	if err != nil {
		t.Fatalf("%s: not within %v (last error: %v)", what, waitTimeout, last)
	}
}
