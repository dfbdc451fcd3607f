package clientcmd

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// TestKubeconfigWritesLeaveMode0600 checks that every kubeconfig write leaves
// the file readable by its owner only, also when the file existed with a
// wider mode. client-go keeps an existing file's mode, so a 0644 kubeconfig
// stays world-readable after a token is written into it.
func TestKubeconfigWritesLeaveMode0600(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are POSIX")
	}
	config := clientcmdapi.NewConfig()
	config.Clusters["c"] = &clientcmdapi.Cluster{Server: "https://c.example"}
	config.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "secret-token"}
	config.Contexts["ctx"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	config.CurrentContext = "ctx"

	writers := map[string]func(t *testing.T, path string) error{
		"WriteToFile": func(t *testing.T, path string) error {
			return WriteToFile(*config, path)
		},
		"ModifyConfig": func(t *testing.T, path string) error {
			rules := &ClientConfigLoadingRules{ExplicitPath: path}
			if _, err := os.Stat(path); os.IsNotExist(err) {
				// ModifyConfig writes the default file: the explicit one,
				// which need not exist.
				return ModifyConfig(rules, *config, false)
			}
			start, err := rules.GetStartingConfig()
			if err != nil {
				return err
			}
			start.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "rotated-token"}
			return ModifyConfig(rules, *start, false)
		},
	}
	for name, write := range writers {
		for _, existingMode := range []os.FileMode{0, 0o644, 0o666, 0o640, 0o600} {
			t.Run(name+"/"+existingMode.String(), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "config")
				if existingMode != 0 {
					if err := WriteToFile(*config, path); err != nil {
						t.Fatal(err)
					}
					if err := os.Chmod(path, existingMode); err != nil {
						t.Fatal(err)
					}
				}
				if err := write(t, path); err != nil {
					t.Fatal(err)
				}
				info, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if got := info.Mode().Perm(); got != 0o600 {
					t.Errorf("mode after write = %v, want -rw-------", got)
				}
				if _, err := LoadFromFile(path); err != nil {
					t.Errorf("written file does not load: %v", err)
				}
			})
		}
	}
}
