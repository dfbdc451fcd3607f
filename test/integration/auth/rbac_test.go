package auth

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/test/integration/framework"
)

func listConfigMaps(t *testing.T, cfg *rest.Config, ns string) error {
	t.Helper()
	client := framework.RESTClientFor(t, cfg, corev1.SchemeGroupVersion, framework.ContentTypeJSON)
	return client.Get().Namespace(ns).Resource("configmaps").Do(context.Background()).Error()
}

func expectForbidden(t *testing.T, err error, user string) {
	t.Helper()
	if !apierrors.IsForbidden(err) {
		t.Fatalf("got %v, want Forbidden", err)
	}
	if apierrors.IsUnauthorized(err) || apierrors.IsNotFound(err) {
		t.Errorf("Forbidden error %v also matches another reason", err)
	}
	if !strings.Contains(err.Error(), `"`+user+`"`) {
		t.Errorf("Forbidden error %q does not name user %q", err, user)
	}
}

func TestRBAC(t *testing.T) {
	ns := controlPlane.Namespace(t)

	if err := listConfigMaps(t, controlPlane.AdminConfig(), ns); err != nil {
		t.Fatalf("admin list: %v", err)
	}
	expectForbidden(t, listConfigMaps(t, controlPlane.UnprivilegedConfig(), ns), framework.PlainUser)

	// Grant the plain user read access in ns; RBAC picks the binding up
	// through its informers, so allow it a moment.
	rbac := framework.RESTClientFor(t, controlPlane.AdminConfig(), rbacv1.SchemeGroupVersion, framework.ContentTypeProtobuf)
	ctx := context.Background()
	role := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "configmap-reader"},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list"}}},
	}
	if err := rbac.Post().Namespace(ns).Resource("roles").Body(role).Do(ctx).Error(); err != nil {
		t.Fatalf("creating role: %v", err)
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "jane-reads"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "configmap-reader"},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: framework.PlainUser}},
	}
	if err := rbac.Post().Namespace(ns).Resource("rolebindings").Body(binding).Do(ctx).Error(); err != nil {
		t.Fatalf("creating role binding: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := listConfigMaps(t, controlPlane.UnprivilegedConfig(), ns)
		if err == nil {
			break
		}
		if !apierrors.IsForbidden(err) || time.Now().After(deadline) {
			t.Fatalf("plain user list after the binding: %v", err)
		}
		time.Sleep(100 * time.Millisecond) // polling the server's informer-fed authorizer
	}

	// The binding is namespaced: other namespaces stay forbidden, and so
	// does writing.
	other := controlPlane.Namespace(t)
	expectForbidden(t, listConfigMaps(t, controlPlane.UnprivilegedConfig(), other), framework.PlainUser)
	core := framework.RESTClientFor(t, controlPlane.UnprivilegedConfig(), corev1.SchemeGroupVersion, framework.ContentTypeJSON)
	err := core.Post().Namespace(ns).Resource("configmaps").
		Body(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x"}}).Do(ctx).Error()
	expectForbidden(t, err, framework.PlainUser)
}

func TestImpersonation(t *testing.T) {
	ns := controlPlane.Namespace(t)

	tests := []struct {
		name          string
		base          *rest.Config
		impersonate   rest.ImpersonationConfig
		wantUser      string
		wantGroups    []string
		wantExtra     map[string]string
		wantForbidden string // user named by the Forbidden error; empty: list allowed
	}{
		{
			name:          "admin as plain user",
			base:          controlPlane.AdminConfig(),
			impersonate:   rest.ImpersonationConfig{UserName: framework.PlainUser},
			wantUser:      framework.PlainUser,
			wantForbidden: framework.PlainUser,
		},
		{
			name: "admin as someone in system:masters",
			base: controlPlane.AdminConfig(),
			impersonate: rest.ImpersonationConfig{
				UserName: "robot",
				UID:      "robot-uid",
				Groups:   []string{"system:masters", "team-a"},
				Extra:    map[string][]string{"scopes": {"all"}},
			},
			wantUser:   "robot",
			wantGroups: []string{"system:masters", "team-a"},
			wantExtra:  map[string]string{"scopes": "all"},
		},
		{
			name:          "plain user may not impersonate",
			base:          controlPlane.UnprivilegedConfig(),
			impersonate:   rest.ImpersonationConfig{UserName: framework.AdminUser},
			wantForbidden: framework.PlainUser,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.base
			cfg.Impersonate = tt.impersonate
			err := listConfigMaps(t, cfg, ns)
			if tt.wantForbidden != "" {
				expectForbidden(t, err, tt.wantForbidden)
			} else if err != nil {
				t.Fatalf("list: %v", err)
			}
			if tt.wantUser == "" {
				return
			}
			info, err := whoAmI(t, cfg)
			if err != nil {
				t.Fatalf("SelfSubjectReview: %v", err)
			}
			if info.Username != tt.wantUser {
				t.Errorf("server sees user %q, want %q", info.Username, tt.wantUser)
			}
			for _, g := range tt.wantGroups {
				if !strings.Contains(strings.Join(info.Groups, ","), g) {
					t.Errorf("server sees groups %v, want %q among them", info.Groups, g)
				}
			}
			for k, v := range tt.wantExtra {
				if got := info.Extra[k]; len(got) != 1 || got[0] != v {
					t.Errorf("server sees extra %s=%v, want [%s]", k, got, v)
				}
			}
			if tt.impersonate.UID != "" && info.UID != tt.impersonate.UID {
				t.Errorf("server sees uid %q, want %q", info.UID, tt.impersonate.UID)
			}
		})
	}
}
