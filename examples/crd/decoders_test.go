package crd_test

import (
	"context"
	"reflect"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8sjson "k8s.io/apimachinery/pkg/runtime/serializer/json"

	stablev1 "github.com/kubeclient/client-go/examples/crd/apis/stable/v1"
	"github.com/kubeclient/client-go/examples/crd/generated/clientset/versioned/scheme"
	"github.com/kubeclient/client-go/internal/fastpath"
)

// TestClientsetDecodesWithGeneratedDecoders checks, end to end, that the
// generated clientset's REST client decodes CronTabs with the decoders
// generated into apis/stable/v1 (zz_generated.decoders.go, registered at
// init): two reads of one object share their interned strings, which
// apimachinery's serializer never does, and the objects equal what that
// serializer makes of the same bytes. KUBECLIENT_GENERATED_DECODERS=false
// (fastpath.GeneratedDecoders) turns them off: the strings are no longer
// shared.
func TestClientsetDecodesWithGeneratedDecoders(t *testing.T) {
	for _, tc := range []struct {
		name      string
		generated bool
	}{
		{"generated decoders", true},
		{"switched off", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer fastpath.GeneratedDecoders.Set(tc.generated)()
			if tc.generated {
				// Sharing strings is the interning's, which the suite with
				// every fast path off switches off too.
				defer fastpath.Interning.Set(true)()
			}
			_, cs := newTypedClient(t)
			ctx := context.Background()
			c := cs.StableV1().CronTabs("x")
			in := fullCronTab()
			in.Spec.CronSpec, in.Spec.Image = "*/5 * * * *", "busybox:1.36"
			if _, err := c.Create(ctx, in, metav1.CreateOptions{}); err != nil {
				t.Fatalf("Create: %v", err)
			}
			var got [2]*stablev1.CronTab
			for i := range got {
				var err error
				if got[i], err = c.Get(ctx, "a", metav1.GetOptions{}); err != nil {
					t.Fatalf("Get: %v", err)
				}
			}
			for _, s := range []struct {
				field string
				a, b  string
			}{
				// Not the namespace: Go shares every one-byte string.
				{"spec.image", got[0].Spec.Image, got[1].Spec.Image},
				{"spec.cronSpec", got[0].Spec.CronSpec, got[1].Spec.CronSpec},
				{"label", got[0].Labels["app"], got[1].Labels["app"]},
			} {
				if shared := s.a != "" && unsafe.StringData(s.a) == unsafe.StringData(s.b); shared != tc.generated {
					t.Errorf("%s of two reads shares its storage: %v, want %v", s.field, shared, tc.generated)
				}
			}

			raw, err := cs.StableV1().RESTClient().Get().AbsPath(collectionPath, "a").DoRaw(ctx)
			if err != nil {
				t.Fatalf("raw Get: %v", err)
			}
			assertReference(t, raw, got[0])

			list, err := c.List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			rawList, err := cs.StableV1().RESTClient().Get().AbsPath(collectionPath).DoRaw(ctx)
			if err != nil {
				t.Fatalf("raw List: %v", err)
			}
			assertReference(t, rawList, list)
		})
	}
}

// assertReference fails unless got equals what apimachinery's JSON
// serializer decodes from data into a new object of got's type, less the
// apiVersion and kind, which a typed client clears as client-go's does.
func assertReference(t *testing.T, data []byte, got runtime.Object) {
	t.Helper()
	ser := k8sjson.NewSerializerWithOptions(k8sjson.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, k8sjson.SerializerOptions{})
	want := reflect.New(reflect.TypeOf(got).Elem()).Interface().(runtime.Object)
	if _, _, err := ser.Decode(data, nil, want); err != nil {
		t.Fatalf("reference decode: %v", err)
	}
	want.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded %T differs from the reference's:\ngot  %+v\nwant %+v", got, got, want)
	}
}
