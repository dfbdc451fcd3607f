package fake_test

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/dynamic/fake"
)

// The server-like dynamic fake, for code that works with custom resources
// through the dynamic client: the seed object makes the fake serve its
// kind, and every write gets a resourceVersion as from an API server.
func ExampleNewServerLikeDynamicClient() {
	ctx := context.Background()
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	widget := func(name, size string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "example.com/v1",
			"kind":       "Widget",
			"metadata":   map[string]interface{}{"name": name, "namespace": "default"},
			"spec":       map[string]interface{}{"size": size},
		}}
	}
	client := fake.NewServerLikeDynamicClient(runtime.NewScheme(), widget("small", "s"))
	ws := client.Resource(widgets).Namespace("default")

	large, _ := ws.Create(ctx, widget("large", "l"), metav1.CreateOptions{})
	fmt.Println(large.GetName(), large.GetResourceVersion(), large.GetGeneration())

	stale := large.DeepCopy()
	_ = unstructured.SetNestedField(large.Object, "xl", "spec", "size")
	large, _ = ws.Update(ctx, large, metav1.UpdateOptions{})
	fmt.Println(large.GetResourceVersion(), large.GetGeneration())
	_, err := ws.Update(ctx, stale, metav1.UpdateOptions{})
	fmt.Println(apierrors.IsConflict(err))

	list, _ := ws.List(ctx, metav1.ListOptions{FieldSelector: "spec.size=s"})
	for _, item := range list.Items {
		fmt.Println(item.GetName())
	}
	// Output:
	// large 3 1
	// 4 2
	// true
	// small
}
