package testenv

import (
	"fmt"
	"os"
	"strconv"
)

// KubeconfigContext is the name of the context (and of the cluster) in
// Env.KubeconfigPath.
const KubeconfigContext = "testenv"

// writeKubeconfig writes a kubeconfig with one cluster, one user
// authenticating with a bearer token, and a current context joining them.
func writeKubeconfig(path, host, caFile, user, token string) error {
	q := strconv.Quote
	content := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: testenv
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: %s
  user:
    token: %s
contexts:
- name: testenv
  context:
    cluster: testenv
    user: %s
current-context: testenv
`, q(host), q(caFile), q(user), q(token), q(user))
	return os.WriteFile(path, []byte(content), 0o600)
}
