package dynamic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/rest"
)

// The dynamic client reads and writes any resource, custom ones included,
// as unstructured objects, without Go types for them. The API server here
// is an httptest server serving one custom resource, widgets.example.com.
func ExampleNewForConfig() {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/apis/example.com/v1/namespaces/default/widgets" {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"apiVersion":"v1","kind":"Status","status":"Failure","reason":"NotFound","code":404}`)
			return
		}
		switch r.Method {
		case http.MethodGet:
			fmt.Fprint(w, `{"apiVersion":"example.com/v1","kind":"WidgetList","metadata":{"resourceVersion":"7"},"items":[`+
				`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"small","namespace":"default"},"spec":{"size":1}},`+
				`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"large","namespace":"default"},"spec":{"size":9}}]}`)
		case http.MethodPost:
			// Store nothing; answer with the object and a resourceVersion.
			var obj unstructured.Unstructured
			if err := json.NewDecoder(r.Body).Decode(&obj.Object); err != nil {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			obj.SetResourceVersion("8")
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(obj.Object)
		}
	}))
	defer server.Close()

	client, err := dynamic.NewForConfig(&rest.Config{Host: server.URL})
	if err != nil {
		panic(err)
	}
	widgets := client.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("default")

	list, err := widgets.List(context.Background(), metav1.ListOptions{})
	if err != nil {
		panic(err)
	}
	for _, item := range list.Items {
		size, _, _ := unstructured.NestedInt64(item.Object, "spec", "size")
		fmt.Println(item.GetName(), size)
	}

	medium := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": "medium"},
		"spec":       map[string]any{"size": int64(5)},
	}}
	created, err := widgets.Create(context.Background(), medium, metav1.CreateOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(created.GetName(), created.GetResourceVersion())
	// Output:
	// small 1
	// large 9
	// medium 8
}
