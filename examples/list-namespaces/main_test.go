package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestRunListsNamespaces runs the example against an httptest server that
// serves a real NamespaceList over TLS, through a kubeconfig written to a temp
// folder. (Like client-go, clientcmd sends credentials only over TLS.)
func TestRunListsNamespaces(t *testing.T) {
	var gotPath, gotAuth string
	server := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotAuth = r.URL.Path, r.Header.Get("Authorization")
		list := corev1.NamespaceList{
			TypeMeta: metav1.TypeMeta{Kind: "NamespaceList", APIVersion: "v1"},
			Items: []corev1.Namespace{
				{ObjectMeta: metav1.ObjectMeta{Name: "default"}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}},
			},
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(&list)
	}))
	defer server.Close()

	kubeconfig := filepath.Join(t.TempDir(), "config")
	content := `apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: ` + server.URL + `
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: secret-token
contexts:
- name: local
  context: {cluster: local, user: admin}
current-context: local
`
	if err := os.WriteFile(kubeconfig, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run(kubeconfig); err != nil {
		t.Fatalf("run: %v", err)
	}
	if gotPath != "/api/v1/namespaces" {
		t.Errorf("request path = %q, want /api/v1/namespaces", gotPath)
	}
	if gotAuth != "Bearer secret-token" {
		t.Errorf("Authorization = %q, want the kubeconfig's bearer token", gotAuth)
	}
}
