package fake

import (
	"context"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	clienttesting "github.com/kubeclient/client-go/testing"
)

// theKind is an object of a kind no scheme of the test knows, as kubectl's
// wait tests build them.
func theKind(name string) map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "group/version", "kind": "TheKind",
		"metadata": map[string]interface{}{"name": name, "namespace": "ns"},
	}
}

// TestReactorAnswersAsClientGo checks what each verb makes of the objects
// reactors return, kubectl's pkg/cmd/wait tests among them: an
// UnstructuredList without apiVersion and kind answering a get (its content
// is the answer, as on client-go), lists without a kind, and a nil pointer
// (no panic).
func TestReactorAnswersAsClientGo(t *testing.T) {
	theResource := schema.GroupVersionResource{Group: "group", Version: "version", Resource: "theresource"}
	oneItem := func() runtime.Object {
		return &unstructured.UnstructuredList{Items: []unstructured.Unstructured{{Object: theKind("a")}}}
	}
	withRV := func() runtime.Object {
		return &unstructured.UnstructuredList{
			Object: map[string]interface{}{"metadata": map[string]interface{}{"resourceVersion": "7"}},
			Items:  []unstructured.Unstructured{{Object: theKind("a")}},
		}
	}
	tests := []struct {
		name   string
		answer func() runtime.Object
		// want is the content of the single-object answer (get, create,
		// update, patch); nil means a nil object.
		want map[string]interface{}
		// wantItems and wantRV are what List returns.
		wantItems []string
		wantRV    string
		wantErr   bool
	}{{
		name:      "kind-less list",
		answer:    oneItem,
		want:      map[string]interface{}{"items": []interface{}{theKind("a")}},
		wantItems: []string{"a"},
	}, {
		name:   "kind-less list with a resourceVersion",
		answer: withRV,
		want: map[string]interface{}{
			"metadata": map[string]interface{}{"resourceVersion": "7"},
			"items":    []interface{}{theKind("a")},
		},
		wantItems: []string{"a"},
		wantRV:    "7",
	}, {
		name:   "empty list",
		answer: func() runtime.Object { return &unstructured.UnstructuredList{} },
		want:   map[string]interface{}{"items": []interface{}{}},
	}, {
		name: "kind-less object",
		answer: func() runtime.Object {
			return &unstructured.Unstructured{Object: map[string]interface{}{"metadata": map[string]interface{}{"name": "x"}}}
		},
		want: map[string]interface{}{"metadata": map[string]interface{}{"name": "x"}},
	}, {
		name:    "typed object the scheme does not know",
		answer:  func() runtime.Object { return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}} },
		wantErr: true,
	}, {
		name:   "nil object",
		answer: func() runtime.Object { return (*unstructured.Unstructured)(nil) },
	}, {
		name:   "nil list",
		answer: func() runtime.Object { return (*unstructured.UnstructuredList)(nil) },
	}}
	ctx := context.Background()
	for _, tt := range tests {
		for _, verb := range []string{"get", "create", "update", "patch", "list"} {
			t.Run(tt.name+"/"+verb, func(t *testing.T) {
				c := NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
					map[schema.GroupVersionResource]string{theResource: "TheKindList"})
				c.PrependReactor(verb, "theresource", func(clienttesting.Action) (bool, runtime.Object, error) {
					return true, tt.answer(), nil
				})
				r := c.Resource(theResource).Namespace("ns")
				if verb == "list" {
					list, err := r.List(ctx, metav1.ListOptions{})
					if (err != nil) != tt.wantErr {
						t.Fatalf("err = %v, want an error: %v", err, tt.wantErr)
					}
					if err != nil {
						return
					}
					var names []string
					for _, item := range list.Items {
						names = append(names, item.GetName())
					}
					if !reflect.DeepEqual(names, tt.wantItems) || list.GetKind() != "TheKindList" ||
						list.GetAPIVersion() != "group/version" || list.GetResourceVersion() != tt.wantRV {
						t.Errorf("list = %s %s rv %q items %v, want TheKindList group/version rv %q items %v",
							list.GetKind(), list.GetAPIVersion(), list.GetResourceVersion(), names, tt.wantRV, tt.wantItems)
					}
					return
				}
				var got *unstructured.Unstructured
				var err error
				switch verb {
				case "get":
					got, err = r.Get(ctx, "a", metav1.GetOptions{})
				case "create":
					got, err = r.Create(ctx, &unstructured.Unstructured{Object: theKind("a")}, metav1.CreateOptions{})
				case "update":
					got, err = r.Update(ctx, &unstructured.Unstructured{Object: theKind("a")}, metav1.UpdateOptions{})
				case "patch":
					got, err = r.Patch(ctx, "a", types.MergePatchType, []byte("{}"), metav1.PatchOptions{})
				}
				if (err != nil) != tt.wantErr {
					t.Fatalf("err = %v, want an error: %v", err, tt.wantErr)
				}
				if err != nil {
					return
				}
				var content map[string]interface{}
				if got != nil {
					content = got.Object
				}
				if !reflect.DeepEqual(content, tt.want) {
					t.Errorf("got %v, want %v", content, tt.want)
				}
			})
		}
	}
}
