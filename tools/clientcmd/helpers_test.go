package clientcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes content to dir/name (creating folders) and returns the
// path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0600); err != nil {
		t.Fatal(err)
	}
	return path
}

// kubeconfigYAML builds a small v1 kubeconfig. Each entry is a
// "name:key=value;key=value" spec turned into YAML fields.
func kubeconfigYAML(currentContext string, clusters, users, contexts []string) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Config\n")
	if currentContext != "" {
		b.WriteString("current-context: " + currentContext + "\n")
	}
	section := func(title, inner string, specs []string) {
		if len(specs) == 0 {
			return
		}
		b.WriteString(title + ":\n")
		for _, spec := range specs {
			name, fields, _ := strings.Cut(spec, ":")
			b.WriteString("- name: " + name + "\n  " + inner + ":\n")
			if fields == "" {
				b.WriteString("    {}\n")
				continue
			}
			for _, kv := range strings.Split(fields, ";") {
				k, v, _ := strings.Cut(kv, "=")
				b.WriteString("    " + k + ": " + v + "\n")
			}
		}
	}
	section("clusters", "cluster", clusters)
	section("users", "user", users)
	section("contexts", "context", contexts)
	return b.String()
}
