package resourceclient

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestScopePath(t *testing.T) {
	pods := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	tests := []struct {
		name         string
		scope        Scope
		object       string
		subresources []string
		objectPath   bool
		want         string
		wantErr      string
	}{
		{name: "core collection, cluster scope", scope: Scope{Resource: pods}, want: "api/v1/pods"},
		{name: "core object subresource in namespace", scope: Scope{pods, "ns"}, object: "p", subresources: []string{"status"}, want: "api/v1/namespaces/ns/pods/p/status"},
		{name: "group collection", scope: Scope{Resource: widgets}, want: "apis/example.com/v1/widgets"},
		{name: "group object", scope: Scope{widgets, "ns"}, object: "w", objectPath: true, want: "apis/example.com/v1/namespaces/ns/widgets/w"},
		{name: "object path needs a name", scope: Scope{Resource: pods}, objectPath: true, wantErr: "name is required"},
		{name: "bad namespace", scope: Scope{pods, ".."}, wantErr: `invalid namespace ".."`},
		{name: "bad name", scope: Scope{Resource: pods}, object: "a/b", wantErr: `invalid resource name "a/b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.scope.Path
			if tt.objectPath {
				path = tt.scope.ObjectPath
			}
			got, err := path(tt.object, tt.subresources...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || strings.Join(got, "/") != tt.want {
				t.Fatalf("got %v, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestMust(t *testing.T) {
	if got := Must(1, nil); got != 1 {
		t.Errorf("Must = %v", got)
	}
	boom := errors.New("boom")
	defer func() {
		if r := recover(); !reflect.DeepEqual(r, boom) {
			t.Errorf("recovered %v, want %v", r, boom)
		}
	}()
	Must(0, boom)
}
