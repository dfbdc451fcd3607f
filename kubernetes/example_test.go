package kubernetes_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	applyappsv1 "github.com/kubeclient/client-go/applyconfigurations/apps/v1"
	applycorev1 "github.com/kubeclient/client-go/applyconfigurations/core/v1"
	applymetav1 "github.com/kubeclient/client-go/applyconfigurations/meta/v1"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/fake"
	"github.com/kubeclient/client-go/rest"
)

// Build a clientset from a rest.Config and read a Pod. The API server here
// is an httptest server that knows one Pod; a real program gets its config
// from clientcmd or rest.InClusterConfig.
func ExampleNewForConfig() {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/default/pods/web" {
			fmt.Fprint(w, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"},`+
				`"spec":{"nodeName":"node-1"},"status":{"phase":"Running"}}`)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"apiVersion":"v1","kind":"Status","status":"Failure","reason":"NotFound","code":404}`)
	}))
	defer server.Close()

	clientset, err := kubernetes.NewForConfig(&rest.Config{Host: server.URL})
	if err != nil {
		panic(err)
	}
	pod, err := clientset.CoreV1().Pods("default").Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(pod.Name, pod.Spec.NodeName, pod.Status.Phase)
	// Output: web node-1 Running
}

// Create, read, update, list and delete with the typed clients. Any
// kubernetes.Interface works; this one is the fake clientset.
func Example_crud() {
	ctx := context.Background()
	var clientset kubernetes.Interface = fake.NewClientset()
	deployments := clientset.AppsV1().Deployments("default")

	labels := map[string]string{"app": "web"}
	created, err := deployments.Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("created", created.Name)

	// Read, change, write back: on a real server an Update carrying a
	// stale resourceVersion fails with a Conflict (retry.RetryOnConflict).
	current, err := deployments.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		panic(err)
	}
	current.Spec.Replicas = ptr.To[int32](3)
	updated, err := deployments.Update(ctx, current, metav1.UpdateOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("replicas", *updated.Spec.Replicas)

	list, err := deployments.List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		panic(err)
	}
	fmt.Println("listed", len(list.Items))

	if err := deployments.Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		panic(err)
	}
	list, _ = deployments.List(ctx, metav1.ListOptions{})
	fmt.Println("left", len(list.Items))
	// Output:
	// created web
	// replicas 3
	// listed 1
	// left 0
}

// Server-side apply: a controller declares the fields it cares about and
// owns them as its field manager; Extract returns what it applied, to
// change and apply again. The fake clientset of NewClientset manages
// fields as an API server does.
func Example_serverSideApply() {
	ctx := context.Background()
	clientset := fake.NewClientset()
	deployments := clientset.AppsV1().Deployments("default")
	owner := metav1.ApplyOptions{FieldManager: "web-controller", Force: true}

	labels := map[string]string{"app": "web"}
	cfg := applyappsv1.Deployment("web", "default").
		WithSpec(applyappsv1.DeploymentSpec().
			WithReplicas(2).
			WithSelector(applymetav1.LabelSelector().WithMatchLabels(labels)).
			WithTemplate(applycorev1.PodTemplateSpec().
				WithLabels(labels).
				WithSpec(applycorev1.PodSpec().WithContainers(
					applycorev1.Container().WithName("web").WithImage("nginx:1.27")))))
	applied, err := deployments.Apply(ctx, cfg, owner)
	if err != nil {
		panic(err)
	}
	fmt.Println(*applied.Spec.Replicas, applied.Spec.Template.Spec.Containers[0].Image)

	// Another actor changes the image with an ordinary update.
	applied.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	if _, err := deployments.Update(ctx, applied, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		panic(err)
	}

	// The controller extracts its own configuration, scales, applies again.
	current, err := deployments.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		panic(err)
	}
	mine, err := applyappsv1.ExtractDeployment(current, "web-controller")
	if err != nil {
		panic(err)
	}
	mine.Spec.WithReplicas(5)
	applied, err = deployments.Apply(ctx, mine, owner)
	if err != nil {
		panic(err)
	}
	fmt.Println(*applied.Spec.Replicas, applied.Spec.Template.Spec.Containers[0].Image)
	for _, entry := range applied.ManagedFields {
		fmt.Println(entry.Manager, entry.Operation)
	}
	// Output:
	// 2 nginx:1.27
	// 5 nginx:1.28
	// web-controller Apply
	// kubectl-edit Update
}
