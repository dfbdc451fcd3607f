package reference

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// unregistered is a valid object that no scheme knows.
type unregistered struct {
	metav1.TypeMeta
	metav1.ObjectMeta
}

func (u *unregistered) DeepCopyObject() runtime.Object { c := *u; return &c }

// noMeta is an object without object or list metadata.
type noMeta struct{ metav1.TypeMeta }

func (n *noMeta) DeepCopyObject() runtime.Object { c := *n; return &c }

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGetReference(t *testing.T) {
	scheme := newScheme(t)
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "prod", UID: "1234", ResourceVersion: "42"}}
	existing := &v1.ObjectReference{Kind: "Node", Name: "n1"}

	tests := []struct {
		name    string
		scheme  *runtime.Scheme
		obj     runtime.Object
		want    *v1.ObjectReference
		wantErr string
		errIs   error
	}{
		{
			name: "kind from scheme", scheme: scheme, obj: pod,
			want: &v1.ObjectReference{Kind: "Pod", APIVersion: "v1", Name: "web-0", Namespace: "prod", UID: "1234", ResourceVersion: "42"},
		},
		{
			name:   "kind from TypeMeta, no scheme needed",
			scheme: nil,
			obj: &unregistered{
				TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1beta1", Kind: "Widget"},
				ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "ns", UID: "u", ResourceVersion: "7"},
			},
			want: &v1.ObjectReference{Kind: "Widget", APIVersion: "example.com/v1beta1", Name: "w", Namespace: "ns", UID: "u", ResourceVersion: "7"},
		},
		{
			name: "list gets only resource version", scheme: scheme,
			obj:  &v1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "99"}},
			want: &v1.ObjectReference{Kind: "PodList", APIVersion: "v1", ResourceVersion: "99"},
		},
		{name: "object reference returned as is", scheme: nil, obj: existing, want: existing},
		{name: "nil object", scheme: scheme, obj: nil, errIs: ErrNilObject},
		{name: "typed nil object", scheme: scheme, obj: (*v1.Pod)(nil), errIs: ErrNilObject},
		{name: "no kind and no scheme", scheme: nil, obj: &v1.Pod{}, wantErr: "scheme is required"},
		{name: "type unknown to scheme", scheme: scheme, obj: &unregistered{}, wantErr: "no kind is registered"},
		{name: "no metadata", scheme: scheme, obj: &noMeta{}, wantErr: "does not implement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := GetReference(tt.scheme, tt.obj)
			switch {
			case tt.errIs != nil:
				if !errors.Is(err, tt.errIs) {
					t.Fatalf("error = %v, want %v", err, tt.errIs)
				}
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
			default:
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("got %+v, want %+v", got, tt.want)
				}
			}
		})
	}
}

func TestGetReferenceWithGVKFromTypeMetaOverridesScheme(t *testing.T) {
	pod := &v1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: metav1.ObjectMeta{Name: "p"}}
	// An empty scheme does not know Pod, but TypeMeta is enough.
	ref, err := GetReference(runtime.NewScheme(), pod)
	if err != nil {
		t.Fatal(err)
	}
	if ref.GroupVersionKind() != (schema.GroupVersionKind{Version: "v1", Kind: "Pod"}) || ref.Name != "p" {
		t.Errorf("got %+v", ref)
	}
}

func TestGetPartialReference(t *testing.T) {
	scheme := newScheme(t)
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
	ref, err := GetPartialReference(scheme, pod, "spec.containers{app}")
	if err != nil {
		t.Fatal(err)
	}
	want := &v1.ObjectReference{Kind: "Pod", APIVersion: "v1", Name: "p", Namespace: "ns", FieldPath: "spec.containers{app}"}
	if !reflect.DeepEqual(ref, want) {
		t.Errorf("got %+v, want %+v", ref, want)
	}
	if _, err := GetPartialReference(scheme, nil, "x"); !errors.Is(err, ErrNilObject) {
		t.Errorf("nil object: error = %v, want ErrNilObject", err)
	}
}
