package fake

import (
	"context"
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestEveryGeneratedResource walks every group version accessor of the
// clientset and every resource getter of its fake client, and checks that
// Get of a missing object answers NotFound and List (where offered)
// succeeds: a smoke test that each generated fake client is wired to a
// resource the tracker and the scheme know.
func TestEveryGeneratedResource(t *testing.T) {
	ctx := reflect.ValueOf(context.Background())
	cs := NewClientset()
	csv := reflect.ValueOf(cs)
	groups := 0
	for i := 0; i < csv.NumMethod(); i++ {
		m := csv.Type().Method(i)
		if m.Type.NumIn() != 1 || m.Type.NumOut() != 1 || m.Name == "Discovery" || m.Name == "Tracker" {
			continue
		}
		group := csv.Method(i).Call(nil)[0]
		if !group.IsValid() || group.Kind() != reflect.Interface || group.MethodByName("RESTClient").Kind() != reflect.Func {
			continue
		}
		groups++
		for j := 0; j < group.NumMethod(); j++ {
			getter := group.Type().Method(j)
			if getter.Name == "RESTClient" {
				continue
			}
			var args []reflect.Value
			if getter.Type.NumIn() == 1 {
				args = []reflect.Value{reflect.ValueOf("default")}
			}
			client := group.Method(j).Call(args)[0]
			name := m.Name + "." + getter.Name
			if get := client.MethodByName("Get"); get.IsValid() {
				out := get.Call([]reflect.Value{ctx, reflect.ValueOf("missing"), reflect.ValueOf(metav1.GetOptions{})})
				if err, _ := out[1].Interface().(error); !apierrors.IsNotFound(err) {
					t.Errorf("%s: Get of a missing object error = %v, want NotFound", name, err)
				}
			}
			if list := client.MethodByName("List"); list.IsValid() {
				out := list.Call([]reflect.Value{ctx, reflect.ValueOf(metav1.ListOptions{})})
				if err, _ := out[1].Interface().(error); err != nil {
					t.Errorf("%s: List: %v", name, err)
				}
			}
		}
	}
	if groups < 40 {
		t.Errorf("walked %d group versions, want the whole clientset", groups)
	}
}
