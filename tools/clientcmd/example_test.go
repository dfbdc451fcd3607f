package clientcmd_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kubeclient/client-go/tools/clientcmd"
)

// kubeconfig is a kubeconfig file with two contexts, as kubectl writes it.
const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: dev
  cluster:
    server: https://dev.example.com:6443
    insecure-skip-tls-verify: true
- name: staging
  cluster:
    server: https://staging.example.com:6443
    insecure-skip-tls-verify: true
users:
- name: alice
  user:
    token: not-a-real-token
contexts:
- name: dev
  context: {cluster: dev, user: alice, namespace: team-a}
- name: staging
  context: {cluster: staging, user: alice}
current-context: dev
`

// writeKubeconfig writes the example kubeconfig into dir and returns its path.
func writeKubeconfig(dir string) string {
	path := filepath.Join(dir, "config")
	if err := os.WriteFile(path, []byte(kubeconfig), 0o600); err != nil {
		panic(err)
	}
	return path
}

// Build a rest.Config from a kubeconfig file, the way a command-line
// program with a -kubeconfig flag does. The current context decides the
// server and the credentials.
func ExampleBuildConfigFromFlags() {
	dir, err := os.MkdirTemp("", "kubeconfig")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := writeKubeconfig(dir)

	config, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		panic(err)
	}
	fmt.Println(config.Host, config.BearerToken != "")

	// A master URL given on the command line wins over the file's server.
	config, err = clientcmd.BuildConfigFromFlags("https://127.0.0.1:8443", path)
	if err != nil {
		panic(err)
	}
	fmt.Println(config.Host)
	// Output:
	// https://dev.example.com:6443 true
	// https://127.0.0.1:8443
}

// Load a kubeconfig the way kubectl does, with overrides such as --context,
// and read the namespace of the chosen context. kubectl's loading rules are
// NewDefaultClientConfigLoadingRules() (KUBECONFIG, else ~/.kube/config);
// here they name one file.
func ExampleNewNonInteractiveDeferredLoadingClientConfig() {
	dir, err := os.MkdirTemp("", "kubeconfig")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: writeKubeconfig(dir)}
	for _, context := range []string{"", "staging"} {
		overrides := &clientcmd.ConfigOverrides{CurrentContext: context}
		clientConfig := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
		config, err := clientConfig.ClientConfig()
		if err != nil {
			panic(err)
		}
		namespace, _, err := clientConfig.Namespace()
		if err != nil {
			panic(err)
		}
		fmt.Printf("context %q: %s namespace %s\n", context, config.Host, namespace)
	}
	// Output:
	// context "": https://dev.example.com:6443 namespace team-a
	// context "staging": https://staging.example.com:6443 namespace default
}
