package widgets

import (
	"encoding/json"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/pkg/decoders"

	stablev1 "example.com/widgets/apis/stable/v1"
)

// TestGeneratedDecodersAreRegistered checks that the decoders -decoders
// wrote into apis/stable/v1 compile in a module of their own, register
// themselves when the package is imported, and decode as encoding/json.
func TestGeneratedDecodersAreRegistered(t *testing.T) {
	for _, obj := range []runtime.Object{&stablev1.Widget{}, &stablev1.WidgetList{}} {
		if !decoders.RegisteredJSON(obj) {
			t.Errorf("%T: no registered JSON decoder", obj)
		}
	}
	want := &stablev1.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns", Labels: map[string]string{"app": "demo"}},
		Spec:       stablev1.WidgetSpec{Color: "red"},
	}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got := &stablev1.Widget{}
	if handled, err := decoders.UnmarshalJSON(data, got); !handled || err != nil {
		t.Fatalf("UnmarshalJSON = %v, %v", handled, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %+v, want %+v", got, want)
	}
}
