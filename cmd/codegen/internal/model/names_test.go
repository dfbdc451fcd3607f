package model

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	stablev1 "github.com/kubeclient/client-go/examples/crd/apis/stable/v1"
)

// TestOpenAPIPackageNameMatchesScheme checks that schema names are those
// runtime.Scheme.ToOpenAPIDefinitionName gives, which the type converter of
// a generated applyconfiguration package looks types up by; a path with a
// hyphen (this module's own) must keep it.
func TestOpenAPIPackageNameMatchesScheme(t *testing.T) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{appsv1.AddToScheme, stablev1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		obj  runtime.Object
		want string
	}{
		{&appsv1.Deployment{}, "io.k8s.api.apps.v1.Deployment"},
		{&stablev1.CronTab{}, "com.github.kubeclient.client-go.examples.crd.apis.stable.v1.CronTab"},
	}
	for _, tc := range tests {
		typ := reflect.TypeOf(tc.obj).Elem()
		got := openAPIPackageName(typ.PkgPath()) + "." + typ.Name()
		if got != tc.want {
			t.Errorf("name of %s = %q, want %q", typ, got, tc.want)
		}
		gvks, _, err := scheme.ObjectKinds(tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		fromScheme, err := scheme.ToOpenAPIDefinitionName(gvks[0])
		if err != nil {
			t.Fatal(err)
		}
		if got != fromScheme {
			t.Errorf("name of %s = %q, the scheme's %q", typ, got, fromScheme)
		}
	}
}
