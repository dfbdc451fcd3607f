package fake_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	applycorev1 "github.com/kubeclient/client-go/applyconfigurations/core/v1"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/fake"
	clienttesting "github.com/kubeclient/client-go/testing"
)

// countPods is code under test: it sees only kubernetes.Interface.
func countPods(ctx context.Context, cs kubernetes.Interface, ns string) (int, error) {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	return len(pods.Items), nil
}

// The plain fake clientset, as client-go's: seed objects, run the code
// under test, inject a failure with a reactor, and look at the actions it
// recorded.
func ExampleNewClientset() {
	ctx := context.Background()
	cs := fake.NewClientset(
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default"}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-2", Namespace: "default"}},
	)
	n, err := countPods(ctx, cs, "default")
	fmt.Println(n, err)

	cs.PrependReactor("list", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("the API server is down")
	})
	_, err = countPods(ctx, cs, "default")
	fmt.Println(err)

	for _, a := range cs.Actions() {
		fmt.Println(a.GetVerb(), a.GetResource().Resource, a.GetNamespace())
	}
	// Output:
	// 2 <nil>
	// the API server is down
	// list pods default
	// list pods default
}

// The server-like fake clientset answers as an API server would: names from
// generateName, resourceVersions and conflicts, watches from a
// resourceVersion, and server-side apply with field ownership.
func ExampleNewServerLikeClientset() {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	configMaps := cs.CoreV1().ConfigMaps("default")

	created, _ := configMaps.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "settings-"},
		Data:       map[string]string{"mode": "slow"},
	}, metav1.CreateOptions{})
	fmt.Println(strings.HasPrefix(created.Name, "settings-"), created.UID != "", created.ResourceVersion)

	// Two writers start from the same version; the second one conflicts.
	first, second := created.DeepCopy(), created.DeepCopy()
	first.Data["mode"] = "fast"
	updated, _ := configMaps.Update(ctx, first, metav1.UpdateOptions{})
	second.Data["mode"] = "off"
	_, err := configMaps.Update(ctx, second, metav1.UpdateOptions{})
	fmt.Println(updated.ResourceVersion, apierrors.IsConflict(err))

	// A watch from the version of the create replays what came after it.
	w, _ := configMaps.Watch(ctx, metav1.ListOptions{ResourceVersion: created.ResourceVersion})
	ev := <-w.ResultChan()
	w.Stop()
	fmt.Println(ev.Type, ev.Object.(*corev1.ConfigMap).Data["mode"])

	// Server-side apply: each field manager owns what it applies.
	apply := func(manager string, force bool, data map[string]string) error {
		cfg := applycorev1.ConfigMap("shared", "default").WithData(data)
		_, err := configMaps.Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager, Force: force})
		return err
	}
	fmt.Println(apply("alice", false, map[string]string{"a": "1"}))
	fmt.Println(apply("bob", false, map[string]string{"b": "2"}))
	fmt.Println(apierrors.IsConflict(apply("bob", false, map[string]string{"a": "3", "b": "2"})))
	fmt.Println(apply("bob", true, map[string]string{"a": "3", "b": "2"}))
	shared, _ := configMaps.Get(ctx, "shared", metav1.GetOptions{})
	fmt.Println(shared.Data)
	// Output:
	// true true 2
	// 3 true
	// MODIFIED fast
	// <nil>
	// <nil>
	// true
	// <nil>
	// map[a:3 b:2]
}
